import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { createUser } from "@/tests/helpers/factories";

let fake: FakeStripe;
let gateway: import("@/lib/payments/types").PaymentGateway;

beforeAll(async () => {
  fake = await startFakeStripe();
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000" });
  const { getGateway } = await import("@/lib/payments/gateway");
  gateway = getGateway();
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

async function backerWithCard(behavior: Parameters<FakeStripe["addPaymentMethod"]>[1] = "ok") {
  const user = await createUser();
  await gateway.createSetupIntent(user);
  const { stripeCustomerId } = await db.user.findUniqueOrThrow({ where: { id: user.id } });
  return { user, customer: stripeCustomerId!, pm: fake.addPaymentMethod(stripeCustomerId!, behavior) };
}

const chargeInput = (
  userId: string,
  paymentMethodId: string,
  pledgeId = `pl_${Math.random().toString(36).slice(2)}`,
) => ({
  pledgeId,
  campaignId: "camp_1",
  userId,
  paymentMethodId,
  amountCents: 1999,
  attempt: 1,
});

const intentRequests = () =>
  fake.state.requests.filter((r) => r.method === "POST" && r.path === "/v1/payment_intents");

describe("Stripe gateway (real SDK against the fake Stripe)", () => {
  it("is the active gateway when the keys are set", () => {
    expect(gateway.mode).toBe("stripe");
  });

  it("creates one customer per user, once, even when asked concurrently, and a SetupIntent for off-session use", async () => {
    const user = await createUser();
    const secrets = await Promise.all([
      gateway.createSetupIntent(user),
      gateway.createSetupIntent(user),
      gateway.createSetupIntent(user),
    ]);
    expect(secrets.every((s) => /^seti_.+_secret_/.test(s.clientSecret))).toBe(true);
    const customerCreates = fake.state.requests.filter((r) => r.path === "/v1/customers" && !r.replayed);
    expect(customerCreates).toHaveLength(1);
    const stored = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(stored.stripeCustomerId).toMatch(/^cus_/);
    await gateway.createSetupIntent(user);
    expect(fake.state.requests.filter((r) => r.path === "/v1/customers")).toHaveLength(3); // no new call once stored
    const si = fake.state.requests.find((r) => r.path === "/v1/setup_intents")!;
    expect(si.body.usage).toBe("off_session");
    expect(si.body.customer).toBe(stored.stripeCustomerId);
  });

  it("gives an account taken over from whoever registered it a customer of its own, not the earlier one replayed (issue 31)", async () => {
    const user = await createUser();
    await gateway.createSetupIntent(user);
    const first = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).stripeCustomerId;
    // what a takeover does (lib/payouts/accounts dropEarlierHolderMoneySetup, with the session version moved)
    await db.user.update({
      where: { id: user.id },
      data: { stripeCustomerId: null, sessionVersion: { increment: 1 } },
    });
    await gateway.createSetupIntent(user);
    const second = (await db.user.findUniqueOrThrow({ where: { id: user.id } })).stripeCustomerId;
    expect(second).toMatch(/^cus_/);
    expect(second).not.toBe(first);
  });

  it("charges off-session with the pledge's idempotency key and metadata", async () => {
    const { user, customer, pm } = await backerWithCard();
    const input = chargeInput(user.id, pm);
    const result = await gateway.charge(input);
    expect(result).toMatchObject({ status: "succeeded", paymentIntentId: expect.stringMatching(/^pi_/) });
    const [req] = intentRequests();
    expect(req.idempotencyKey).toBe(`pledge-${input.pledgeId}-attempt-1`);
    expect(req.body).toMatchObject({
      customer,
      payment_method: pm,
      amount: "1999",
      currency: "usd",
      off_session: "true",
      confirm: "true",
    });
    expect(req.body.metadata).toMatchObject({ pledgeId: input.pledgeId, campaignId: "camp_1" });
  });

  it("reuses the idempotency key after a dropped connection: Stripe replays, the card is charged once", async () => {
    const { user, pm } = await backerWithCard();
    const input = chargeInput(user.id, pm);
    fake.inject({ match: "POST /v1/payment_intents", kind: "drop-after" });
    const result = await gateway.charge(input);
    expect(result.status).toBe("succeeded");
    const reqs = intentRequests();
    expect(reqs).toHaveLength(2);
    expect(reqs.map((r) => r.idempotencyKey)).toEqual([
      `pledge-${input.pledgeId}-attempt-1`,
      `pledge-${input.pledgeId}-attempt-1`,
    ]);
    expect(reqs[1].replayed).toBe(true);
    expect(fake.chargeCount(input.pledgeId)).toBe(1);
  });

  it("retries a 500 and 429s with the same key, and a connection dropped before Stripe saw it", async () => {
    const { user, pm } = await backerWithCard();
    const input = chargeInput(user.id, pm);
    fake.inject({ match: "POST /v1/payment_intents", kind: "500" });
    fake.inject({ match: "POST /v1/payment_intents", kind: "429", times: 2 });
    fake.inject({ match: "POST /v1/payment_intents", kind: "drop-before" });
    const result = await gateway.charge(input);
    expect(result.status).toBe("succeeded");
    const reqs = intentRequests();
    expect(reqs).toHaveLength(5);
    expect(new Set(reqs.map((r) => r.idempotencyKey))).toEqual(
      new Set([`pledge-${input.pledgeId}-attempt-1`]),
    );
    expect(fake.chargeCount(input.pledgeId)).toBe(1);
  });

  it("waits for a same-key request still in flight (409) and gets its result, not a second charge", async () => {
    const { user, pm } = await backerWithCard();
    const input = chargeInput(user.id, pm);
    fake.state.latencyMs = 300;
    try {
      const [a, b] = await Promise.all([
        gateway.charge(input),
        new Promise((r) => setTimeout(r, 100)).then(() => gateway.charge(input)),
      ]);
      expect(a).toEqual(b);
    } finally {
      fake.state.latencyMs = 0;
    }
    expect(fake.chargeCount(input.pledgeId)).toBe(1);
    expect(intentRequests().length).toBeGreaterThanOrEqual(3); // first, the 409, the replay
  });

  it("gives up with an error (outcome unknown) when the provider stays unreachable", async () => {
    const { user, pm } = await backerWithCard();
    fake.inject({ match: "POST /v1/payment_intents", kind: "500", times: 10 });
    await expect(gateway.charge(chargeInput(user.id, pm))).rejects.toThrow();
    expect(intentRequests()).toHaveLength(5);
  });

  it("answers a person with 503 UNAVAILABLE when Stripe stays down while they save a card", async () => {
    const user = await createUser();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    fake.inject({ match: "POST /v1/customers", kind: "500", times: 10 });
    await expect(gateway.createSetupIntent(user)).rejects.toMatchObject({ code: "UNAVAILABLE" });
    warn.mockRestore();
  });

  it("maps declines, hard declines and authentication_required", async () => {
    const cases = [
      ["generic_decline", { status: "failed", code: "generic_decline", retryable: true }],
      ["insufficient_funds", { status: "failed", code: "insufficient_funds", retryable: true }],
      ["lost_card", { status: "failed", code: "lost_card", retryable: false }],
      ["expired_card", { status: "failed", code: "expired_card", retryable: false }],
      [
        "authentication_required",
        {
          status: "requires_action",
          code: "authentication_required",
          paymentIntentId: expect.stringMatching(/^pi_/),
        },
      ],
    ] as const;
    for (const [behavior, expected] of cases) {
      const { user, pm } = await backerWithCard(behavior);
      const result = await gateway.charge(chargeInput(user.id, pm));
      expect(result, behavior).toMatchObject(expected);
    }
    // A decline is not retried: one request per charge.
    expect(intentRequests()).toHaveLength(cases.length);
  });

  it("getCard returns the viewer's own card and refuses anyone else's", async () => {
    const a = await backerWithCard();
    const b = await backerWithCard();
    await expect(gateway.getCard(a.user, a.pm)).resolves.toMatchObject({
      paymentMethodId: a.pm,
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2030,
    });
    await expect(gateway.getCard(a.user, b.pm)).rejects.toBeInstanceOf(AppError);
    await expect(gateway.getCard(a.user, "pm_does_not_exist")).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("refunds with an idempotency key per pledge and detaches cards", async () => {
    const { user, pm } = await backerWithCard();
    const input = chargeInput(user.id, pm);
    const charged = await gateway.charge(input);
    if (charged.status !== "succeeded") throw new Error("expected a charge");
    const { refundId } = await gateway.refund({
      key: `refund-${input.pledgeId}`,
      pledgeId: input.pledgeId,
      paymentIntentId: charged.paymentIntentId,
    });
    expect(refundId).toMatch(/^re_/);
    expect(fake.state.requests.find((r) => r.path === "/v1/refunds")!.idempotencyKey).toBe(
      `refund-${input.pledgeId}`,
    );
    await gateway.detach(pm);
    expect(fake.state.paymentMethods.get(pm)!.customer).toBeNull();
  });
});
