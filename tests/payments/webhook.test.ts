import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { fundedPaidCampaign } from "@/tests/charging/helpers";

let fake: FakeStripe;
let POST: (req: Request) => Promise<Response>;
const SECRET = "whsec_test_fake";

beforeAll(async () => {
  fake = await startFakeStripe();
  useFakeStripeEnv(fake);
  ({ POST } = await import("@/app/api/stripe/webhook/route"));
});
afterAll(async () => {
  await fake.close();
});

let n = 0;
function intentEvent(
  type: string,
  pi: {
    id: string;
    pledgeId: string;
    attempt: number;
    amount?: number;
    error?: { code: string; decline_code?: string; message: string };
  },
) {
  return {
    id: `evt_${Date.now().toString(36)}_${++n}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: {
      object: {
        id: pi.id,
        object: "payment_intent",
        amount: pi.amount ?? 2500,
        created: Math.floor(Date.now() / 1000),
        status:
          type === "payment_intent.succeeded"
            ? "succeeded"
            : type === "payment_intent.requires_action"
              ? "requires_action"
              : "requires_payment_method",
        metadata: { pledgeId: pi.pledgeId, attempt: String(pi.attempt) },
        last_payment_error: pi.error ? { type: "card_error", ...pi.error } : null,
      },
    },
  };
}

function deliver(event: object, opts: { secret?: string; signature?: string | null } = {}) {
  const payload = JSON.stringify(event);
  const header =
    opts.signature === undefined
      ? Stripe.webhooks.generateTestHeaderString({ payload, secret: opts.secret ?? SECRET })
      : opts.signature;
  return POST(
    new Request("http://test/api/stripe/webhook", {
      method: "POST",
      body: payload,
      headers: header ? { "stripe-signature": header } : {},
    }),
  );
}

describe("POST /api/stripe/webhook", () => {
  it("rejects a missing or wrong signature with 400 and changes nothing", async () => {
    const { pledges } = await fundedPaidCampaign(fake, { pledges: 1 });
    const event = intentEvent("payment_intent.succeeded", {
      id: "pi_forged",
      pledgeId: pledges[0].id,
      attempt: 0,
    });
    const wrong = await deliver(event, { secret: "whsec_other" });
    expect(wrong.status).toBe(400);
    expect((await wrong.json()).error.message).toBe("Invalid Stripe webhook signature.");
    expect((await deliver(event, { signature: null })).status).toBe(400);
    // A body altered after signing fails too.
    const payload = JSON.stringify(event);
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const tampered = await POST(
      new Request("http://t", {
        method: "POST",
        body: payload.replace("pi_forged", "pi_other"),
        headers: { "stripe-signature": header },
      }),
    );
    expect(tampered.status).toBe(400);
    expect((await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } })).charged).toBe(false);
    expect(await db.stripeEvent.count({ where: { id: event.id } })).toBe(0);
  });

  it("handles each event id once", async () => {
    const { pledges } = await fundedPaidCampaign(fake, { pledges: 1 });
    await db.pledge.update({
      where: { id: pledges[0].id },
      data: { chargeStatus: "processing", chargeAttempts: 1 },
    });
    const event = intentEvent("payment_intent.payment_failed", {
      id: "pi_once_1",
      pledgeId: pledges[0].id,
      attempt: 1,
      error: {
        code: "card_declined",
        decline_code: "insufficient_funds",
        message: "Your card has insufficient funds.",
      },
    });
    const first = await deliver(event);
    expect(await first.json()).toEqual({ received: true, duplicate: false });
    const second = await deliver(event);
    expect(await second.json()).toEqual({ received: true, duplicate: true });
    const p = await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } });
    expect([p.chargeStatus, p.chargeFailureCode, p.paymentIntentId]).toEqual([
      "failed",
      "insufficient_funds",
      "pi_once_1",
    ]);
    expect(await db.emailOutbox.count({ where: { dedupeKey: `charge-failed:${p.id}:1` } })).toBe(1);
  });

  it("converges to the same state whatever the delivery order", async () => {
    const orders = [
      [0, 1, 2],
      [0, 2, 1],
      [1, 0, 2],
      [1, 2, 0],
      [2, 0, 1],
      [2, 1, 0],
    ];
    for (const order of orders) {
      const { campaign, pledges } = await fundedPaidCampaign(fake, { pledges: 1, status: "charging" });
      const pledgeId = pledges[0].id;
      // Attempt 1 failed, the backer's attempt 2 succeeded; the runner still holds attempt 2.
      await db.pledge.update({
        where: { id: pledgeId },
        data: { chargeStatus: "processing", chargeAttempts: 2, chargeClaimedAt: new Date() },
      });
      const events = [
        intentEvent("payment_intent.payment_failed", {
          id: `pi_a_${order.join("")}`,
          pledgeId,
          attempt: 1,
          error: {
            code: "card_declined",
            decline_code: "generic_decline",
            message: "Your card was declined.",
          },
        }),
        intentEvent("payment_intent.succeeded", { id: `pi_b_${order.join("")}`, pledgeId, attempt: 2 }),
        intentEvent("payment_intent.requires_action", { id: `pi_a_${order.join("")}`, pledgeId, attempt: 1 }),
      ];
      for (const i of order) expect((await deliver(events[i])).status).toBe(200);
      const p = await db.pledge.findUniqueOrThrow({ where: { id: pledgeId } });
      expect([p.chargeStatus, p.charged, p.verified, p.paymentIntentId, p.chargeType], order.join()).toEqual([
        "succeeded",
        true,
        true,
        `pi_b_${order.join("")}`,
        "paid",
      ]);
      // issue 32: one money row, the succeeded attempt's, under the key it was sent with
      const rows = await db.moneyMovement.findMany({ where: { pledgeId } });
      expect(
        rows.map((r) => [r.kind, r.state, r.idempotencyKey, r.providerId, Number(r.amountCents)]),
        order.join(),
      ).toEqual([["charge", "succeeded", `pledge-${pledgeId}-attempt-2`, `pi_b_${order.join("")}`, 2500]]);
      const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
      expect([c.status, c.totalCharged, c.totalChargedCents], order.join()).toEqual(["charged", 1, 2500n]);
    }
  });

  it("acknowledges setup intent events and unknown types", async () => {
    for (const type of ["setup_intent.succeeded", "setup_intent.setup_failed", "customer.created"]) {
      const res = await deliver({
        id: `evt_${type}_${n++}`,
        object: "event",
        type,
        data: { object: { id: "seti_1", object: "setup_intent" } },
      });
      expect(res.status).toBe(200);
    }
  });

  it("answers a signed body that is not an event with 400, never 500", async () => {
    const payload = "not json at all";
    const header = Stripe.webhooks.generateTestHeaderString({ payload, secret: SECRET });
    const res = await POST(
      new Request("http://t", { method: "POST", body: payload, headers: { "stripe-signature": header } }),
    );
    expect(res.status).toBe(400);
    expect((await deliver({ type: "payment_intent.succeeded" })).status).toBe(400); // no id
    expect((await deliver({ id: "evt_no_object", type: "payment_intent.succeeded", data: {} })).status).toBe(
      200,
    );
    expect(
      (
        await deliver({
          id: "evt_bad_meta",
          type: "payment_intent.succeeded",
          data: { object: { id: "pi_x", object: "payment_intent", metadata: { pledgeId: 5 } } },
        })
      ).status,
    ).toBe(200);
  });
});
