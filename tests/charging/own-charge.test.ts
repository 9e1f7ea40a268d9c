import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe, type CardBehavior } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { createCampaign } from "@/tests/helpers/factories";

/**
 * SPEC §8 for the committer whose commit tips a paid event (issue 19 item 2): their own pledge is
 * charged at once, on-session, through the single pledge-state writer; a failure opens the recovery
 * window and says so, a bank's authentication comes back for the dialog to complete, and a charge
 * slower than the time budget is answered "being charged" and still recorded once.
 */
let fake: FakeStripe;
let pledges: typeof import("@/lib/pledges/service");
let recovery: typeof import("@/lib/charging/recovery");

beforeAll(async () => {
  fake = await startFakeStripe();
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000", RATE_LIMIT_DISABLED: "true" });
  pledges = await import("@/lib/pledges/service");
  recovery = await import("@/lib/charging/recovery");
});
afterAll(async () => {
  await fake.close();
});

let n = 0;
async function backerWithCard(behavior: CardBehavior) {
  const tag = `${Date.now().toString(36)}${++n}`;
  const user = await db.user.create({
    data: { email: `own-${tag}@example.test`, name: `Own ${tag}`, stripeCustomerId: `cus_own_${tag}` },
    select: { id: true, email: true, name: true, isAdmin: true },
  });
  return {
    user,
    card: fake.addPaymentMethod(`cus_own_${tag}`, behavior, behavior === "ok" ? "4242" : "0341"),
  };
}

async function tip(behavior: CardBehavior, goal = 1) {
  const campaign = await createCampaign({ goal, ticketPriceCents: 1800 });
  const { user, card } = await backerWithCard(behavior);
  const result = await pledges.commitToCampaign(user, { campaignId: campaign.id, paymentMethodId: card });
  const pledge = await db.pledge.findUniqueOrThrow({ where: { id: result.pledgeId } });
  return { campaign, user, result, pledge };
}

/** A tipped $18 event (goal 1) with one uncharged pledge and a good card: the tip's own charge to make. */
async function pledgeOnTippedEvent() {
  const campaign = await createCampaign({ goal: 1, ticketPriceCents: 1800, status: "funded" });
  const { user, card } = await backerWithCard("ok");
  const pledge = await db.pledge.create({
    data: {
      campaignId: campaign.id,
      userId: user.id,
      contributor: "x",
      amountCents: 1800,
      paymentMethodId: card,
    },
  });
  return { campaign, user, card, pledge };
}

const failureEmails = (pledgeId: string) =>
  db.emailOutbox.count({ where: { dedupeKey: { startsWith: `charge-failed:${pledgeId}` } } });

describe("the commit that tips a paid event charges its own pledge at once", () => {
  it("a good card is charged on-session, once; with nobody else to charge the event is charged", async () => {
    const { campaign, result, pledge } = await tip("ok");
    expect(result).toMatchObject({ crossed: true, ownPayment: { status: "succeeded", amountCents: 1800 } });
    expect([pledge.chargeStatus, pledge.chargeAttempts, pledge.charged]).toEqual(["succeeded", 1, true]);
    expect(fake.chargeCount(pledge.id)).toBe(1);
    const onSession = fake.state.requests.filter((r) => r.path === "/v1/payment_intents").at(-1)!;
    expect(onSession.body.off_session).toBeUndefined();
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("charged");
  });

  it("a declined card: the pledge stands, its recovery window opens, the backer is told how to pay and by when", async () => {
    const { result, pledge } = await tip("generic_decline");
    expect(result.ownPayment).toEqual({
      status: "failed",
      amountCents: 1800,
      reason: expect.stringMatching(/declined/i),
      payUrl: `/pledges/${pledge.id}/pay`,
      dueText: expect.stringMatching(/\d{4}/),
    });
    expect(pledge.chargeStatus).toBe("failed");
    expect(pledge.paymentFailedAt).toBeInstanceOf(Date);
    expect(await failureEmails(pledge.id)).toBe(1);
  });

  it("a bank that asks for authentication: the client secret comes back for the dialog, and no failure email is sent meanwhile", async () => {
    const { user, result, pledge } = await tip("authentication_required");
    expect(result.ownPayment).toEqual({
      status: "requires_action",
      amountCents: 1800,
      clientSecret: expect.stringMatching(/^pi_.+_secret_/),
      payUrl: `/pledges/${pledge.id}/pay`,
      dueText: expect.stringMatching(/\d{4}/),
    });
    expect(await failureEmails(pledge.id)).toBe(0);
    // The dialog completes 3-D Secure (Stripe.js), then the server reads the outcome.
    fake.state.paymentIntents.get(pledge.paymentIntentId!)!.status = "succeeded";
    expect(await recovery.confirmPledgePayment({ id: user.id, isAdmin: false }, pledge.id)).toEqual({
      status: "succeeded",
    });
    expect(fake.chargeCount(pledge.id)).toBe(1);
  });

  it("a charge slower than the budget is answered 'pending' and recorded once it finishes", async () => {
    const { campaign, user, pledge } = await pledgeOnTippedEvent();
    expect(await recovery.chargeOwnPledgeNow(user, pledge.id, campaign.id, 0)).toEqual({ status: "pending" });
    await expect
      .poll(async () => (await db.pledge.findUniqueOrThrow({ where: { id: pledge.id } })).chargeStatus)
      .toBe("succeeded");
    // Claimed once: a second call finds nothing to charge.
    expect(await recovery.chargeOwnPledgeNow(user, pledge.id, campaign.id)).toEqual({ status: "pending" });
    expect(fake.chargeCount(pledge.id)).toBe(1);
  });

  it("an own charge whose process died is re-driven off-session with its key: Stripe refuses the other parameters, the replay in the first mode records the one payment", async () => {
    const state = await import("@/lib/ledger/pledge-state");
    const { getGateway } = await import("@/lib/payments/gateway");
    const service = await import("@/lib/charging/service");
    const { campaign, user, card, pledge } = await pledgeOnTippedEvent();
    // The own charge claimed and sent its on-session payment, then the process died before recording it.
    const [claim] = await state.claimBatch(
      campaign.id,
      state.STALE_CLAIM_MS,
      new Date(),
      false,
      1,
      pledge.id,
    );
    const sent = await getGateway().chargeOnSession({
      pledgeId: pledge.id,
      campaignId: campaign.id,
      userId: user.id,
      paymentMethodId: card,
      amountCents: 1800,
      attempt: claim.chargeAttempts,
    });
    expect(sent.status).toBe("succeeded");
    await db.$executeRaw`UPDATE "Pledge" SET "chargeClaimedAt" = now() - interval '10 minutes' WHERE id = ${pledge.id}`;

    await service.runCharging(campaign.id);
    const key = `pledge-${pledge.id}-attempt-1`;
    const tries = fake.state.requests.filter(
      (r) => r.path === "/v1/payment_intents" && r.idempotencyKey === key,
    );
    expect(tries.map((r) => (r.body.off_session ? "off" : "on"))).toEqual(["on", "off", "on"]);
    expect(tries[2].replayed).toBe(true);
    const after = await db.pledge.findUniqueOrThrow({ where: { id: pledge.id } });
    expect([after.chargeStatus, after.paymentIntentId]).toEqual([
      "succeeded",
      sent.status === "succeeded" ? sent.paymentIntentId : "",
    ]);
    expect(fake.chargeCount(pledge.id)).toBe(1);
  });
});
