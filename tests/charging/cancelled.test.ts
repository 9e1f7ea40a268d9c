import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { fundedPaidCampaign } from "@/tests/charging/helpers";

let fake: FakeStripe;
let service: typeof import("@/lib/charging/service");

beforeAll(async () => {
  fake = await startFakeStripe({ latencyMs: 2 });
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000" });
  service = await import("@/lib/charging/service");
});
afterAll(async () => {
  await fake.close();
});

describe("charging stops at a cancellation", () => {
  it("claims no new pledge once the event is cancelled mid-run, so no further money moves", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, { pledges: 8, goal: 8 });
    const charged = () => pledges.reduce((n, p) => n + fake.chargeCount(p.id), 0);
    fake.state.latencyMs = 80;
    const run = service.runCharging(campaign.id, { concurrency: 1 });
    while (charged() === 0) await new Promise((r) => setTimeout(r, 5));
    await db.campaign.update({
      where: { id: campaign.id },
      data: { status: "cancelled", cancelledAt: new Date() },
    });
    await run;
    fake.state.latencyMs = 2;
    const made = charged();
    // the charge in flight when the cancellation landed may complete; nothing after it
    expect(made).toBeGreaterThanOrEqual(1);
    expect(made).toBeLessThanOrEqual(2);
    const untouched = await db.pledge.count({ where: { campaignId: campaign.id, chargeStatus: "none" } });
    expect(untouched).toBe(8 - made);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("cancelled");
  });

  it("still charges every pledge of a confirmed event (control)", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, { pledges: 4, goal: 4 });
    await service.runCharging(campaign.id, { concurrency: 2 });
    expect(pledges.every((p) => fake.chargeCount(p.id) === 1)).toBe(true);
  });
});
