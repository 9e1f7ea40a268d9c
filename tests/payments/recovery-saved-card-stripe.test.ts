import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { duplicates, fundedPaidCampaign } from "@/tests/charging/helpers";

/**
 * Issue 37 against the fake Stripe: a backer whose off-session charge was declined pays on the pay
 * page with their card on file (another saved card of their Customer) in one tap: charged once,
 * on-session, with no SetupIntent; a hard-declined card is never offered again.
 */
let fake: FakeStripe;
let charging: typeof import("@/lib/charging/service");
let recovery: typeof import("@/lib/charging/recovery");
let cards: typeof import("@/lib/pledges/saved-cards");
let gateway: import("@/lib/payments/types").PaymentGateway;

beforeAll(async () => {
  fake = await startFakeStripe();
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000" });
  charging = await import("@/lib/charging/service");
  recovery = await import("@/lib/charging/recovery");
  cards = await import("@/lib/pledges/saved-cards");
  gateway = (await import("@/lib/payments/gateway")).getGateway();
});
afterAll(async () => {
  await fake.close();
});

describe("the pay page's card on file, with Stripe", () => {
  it("pays a declined charge with another saved card once, on-session, without a SetupIntent", async () => {
    const { users, pledges } = await fundedPaidCampaign(fake, {
      pledges: 2,
      behaviors: (i) => (i === 0 ? "lost_card" : "ok"),
    });
    await charging.runCharging(pledges[0].campaignId);
    const failed = await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } });
    expect([failed.chargeStatus, failed.chargeFailureCode]).toEqual(["failed", "lost_card"]);

    const backer = { id: users[0].id, email: users[0].email, name: null, isAdmin: false };
    // the lost card on file is never offered again; a second card on the same Customer is
    await cards.rememberCard(backer.id, await gateway.getCard(backer, pledges[0].paymentMethodId));
    expect(await cards.recoveryCard(backer, pledges[0].id)).toBeNull();
    const spare = fake.addPaymentMethod(users[0].stripeCustomerId, "ok", "1881");
    await cards.rememberCard(backer.id, await gateway.getCard(backer, spare));
    const offered = await cards.recoveryCard(backer, pledges[0].id);
    expect(offered).toMatchObject({ paymentMethodId: spare, last4: "1881" });

    const setupIntentsBefore = fake.state.requests.filter((r) => r.path === "/v1/setup_intents").length;
    const results = await Promise.allSettled([
      recovery.payPledgeOnSession(backer, {
        pledgeId: pledges[0].id,
        paymentMethodId: offered!.paymentMethodId,
      }),
      recovery.payPledgeOnSession(backer, {
        pledgeId: pledges[0].id,
        paymentMethodId: offered!.paymentMethodId,
      }),
    ]);
    expect(results.filter((r) => r.status === "fulfilled" && r.value.status === "succeeded")).toHaveLength(1);
    const onSession = fake.state.requests.filter((r) => r.path === "/v1/payment_intents").at(-1)!;
    expect(onSession.body.off_session).toBeUndefined();
    expect(onSession.body.payment_method).toBe(spare);
    expect(fake.state.requests.filter((r) => r.path === "/v1/setup_intents")).toHaveLength(
      setupIntentsBefore,
    );
    expect(duplicates(fake, [pledges[0].id])).toEqual([]);
    const paid = await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } });
    expect([paid.chargeStatus, paid.paymentMethodId, paid.cardLast4]).toEqual(["succeeded", spare, "1881"]);
    expect(await cards.recoveryCard(backer, pledges[0].id)).toBeNull();
  });
});
