import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { fundedPaidCampaign } from "@/tests/charging/helpers";

let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe();
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "10", CHARGE_CONCURRENCY: "16" });
});
afterAll(async () => {
  await fake.close();
});

describe("Stripe calls pass the shared rate limiter", () => {
  it("a charging run at 16 in flight never sends Stripe more than STRIPE_RATE_LIMIT requests per second", async () => {
    const { runCharging } = await import("@/lib/charging/service");
    const { campaign, pledges } = await fundedPaidCampaign(fake, { pledges: 35 });
    fake.reset();
    const started = Date.now();
    // Two runs at once, as two instances would: they share the limiter through Postgres.
    await Promise.all([runCharging(campaign.id), runCharging(campaign.id)]);
    const elapsed = Date.now() - started;
    const arrivals = fake.state.requests.map((r) => r.at).sort((a, b) => a - b);
    expect(arrivals).toHaveLength(35);
    // Slots are taken on the database clock; arrival at the fake adds a few ms of jitter.
    for (let i = 0; i + 10 < arrivals.length; i++)
      expect(arrivals[i + 10] - arrivals[i]).toBeGreaterThanOrEqual(950);
    expect(elapsed).toBeGreaterThanOrEqual(3000);
    expect(pledges.every((p) => fake.chargeCount(p.id) === 1)).toBe(true);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("charged");
  }, 30_000);
});
