import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { fundedPaidCampaign } from "@/tests/charging/helpers";

let fake: FakeStripe;
let service: typeof import("@/lib/charging/service");
let recovery: typeof import("@/lib/charging/recovery");

beforeAll(async () => {
  fake = await startFakeStripe();
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000" });
  service = await import("@/lib/charging/service");
  recovery = await import("@/lib/charging/recovery");
});
afterAll(async () => {
  await fake.close();
});

describe("paying a failed charge on-session with Stripe", () => {
  it("a card needing authentication returns the PaymentIntent's client secret; once authenticated, the payment is recorded", async () => {
    const { campaign, users, pledges } = await fundedPaidCampaign(fake, {
      pledges: 2,
      behaviors: (i) => (i === 0 ? "authentication_required" : "ok"),
    });
    await service.runCharging(campaign.id);
    const before = await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } });
    expect([before.chargeStatus, before.chargeFailureCode]).toEqual([
      "requires_action",
      "authentication_required",
    ]);

    const backer = { id: users[0].id, email: users[0].email, isAdmin: false };
    const result = await recovery.payPledgeOnSession(backer, {
      pledgeId: pledges[0].id,
      paymentMethodId: pledges[0].paymentMethodId,
    });
    expect(result).toEqual({
      status: "requires_action",
      clientSecret: expect.stringMatching(/^pi_.+_secret_/),
    });
    const onSession = fake.state.requests.filter((r) => r.path === "/v1/payment_intents").at(-1)!;
    expect(onSession.body.off_session).toBeUndefined();
    expect(onSession.idempotencyKey).toBe(`pledge-${pledges[0].id}-attempt-2`);

    // Not authenticated yet: nothing recorded as paid.
    expect(await recovery.confirmPledgePayment(backer, pledges[0].id)).toMatchObject({ status: "failed" });
    // The browser completes 3-D Secure (stripe.handleNextAction); Stripe then reports success.
    const piId = (await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } })).paymentIntentId!;
    fake.state.paymentIntents.get(piId)!.status = "succeeded";
    expect(await recovery.confirmPledgePayment(backer, pledges[0].id)).toEqual({ status: "succeeded" });
    const after = await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } });
    expect([after.chargeStatus, after.charged, after.paymentIntentId]).toEqual(["succeeded", true, piId]);
    expect(fake.chargeCount(pledges[0].id)).toBe(2); // the off-session attempt (declined) and this one
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([c.status, c.totalCharged]).toEqual(["charged", 2]);

    // Someone else cannot confirm it.
    await expect(
      recovery.confirmPledgePayment({ id: users[1].id, isAdmin: false }, pledges[0].id),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});
