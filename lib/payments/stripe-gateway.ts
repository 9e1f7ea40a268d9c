import "server-only";
import Stripe from "stripe";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import {
  chargeIdempotencyKey,
  type CardSummary,
  type ChargeInput,
  type ChargeResult,
  type PaymentGateway,
} from "@/lib/payments/types";
import { callStripe } from "@/lib/payments/stripe-client";
import { stripeConnect } from "@/lib/payments/stripe-connect";
import { isHardDecline } from "@/lib/payments/declines";

/** The Stripe implementation of the payment gateway (real `stripe` SDK; calls through lib/payments/stripe-client.ts). */
/** The user's Stripe customer, created once; a concurrent second creation is detected and discarded. */
async function customerFor(user: { id: string; email?: string }): Promise<string> {
  const row = await db.user.findUniqueOrThrow({
    where: { id: user.id },
    select: { stripeCustomerId: true, email: true, sessionVersion: true },
  });
  if (row.stripeCustomerId) return row.stripeCustomerId;
  // The key names the account's holder too (the session version): when a confirmation or a Google
  // join takes an account over from whoever registered it (issue 31), its customer is cleared and the
  // session version moves, so the new holder gets a customer of their own, never the earlier one replayed.
  const customer = await callStripe((s) =>
    s.customers.create(
      { email: row.email, metadata: { userId: user.id } },
      { idempotencyKey: `customer-${user.id}-${row.sessionVersion}` },
    ),
  );
  // The idempotency key makes concurrent creations return the same customer within 24 h; the
  // conditional update keeps the first stored id if an older one exists.
  await db.user.updateMany({
    where: { id: user.id, stripeCustomerId: null },
    data: { stripeCustomerId: customer.id },
  });
  const stored = await db.user.findUniqueOrThrow({
    where: { id: user.id },
    select: { stripeCustomerId: true },
  });
  return stored.stripeCustomerId ?? customer.id;
}

/** Maps a Stripe card error to a charge result (declines, expired card, authentication). */
function mapCardError(err: InstanceType<typeof Stripe.errors.StripeError>): ChargeResult {
  const pi = err.payment_intent;
  const code = err.code ?? "card_declined";
  const decline = err.decline_code;
  if (code === "authentication_required" || decline === "authentication_required") {
    return {
      status: "requires_action",
      code: "authentication_required",
      message: err.message || "This transaction requires authentication.",
      paymentIntentId: pi?.id ?? "",
    };
  }
  // Record the most specific reason: insufficient_funds, lost_card… rather than card_declined.
  const reason = code === "card_declined" && decline ? decline : code;
  return {
    status: "failed",
    code: reason,
    message: err.message || "Your card was declined.",
    paymentIntentId: pi?.id,
    retryable: !isHardDecline(reason) && !isHardDecline(decline),
  };
}

function resultOfIntent(pi: Stripe.PaymentIntent): ChargeResult {
  if (pi.status === "succeeded" || pi.status === "processing")
    return { status: "succeeded", paymentIntentId: pi.id };
  if (pi.status === "requires_action") {
    return {
      status: "requires_action",
      code: "authentication_required",
      message: "This transaction requires authentication.",
      paymentIntentId: pi.id,
    };
  }
  const last = pi.last_payment_error;
  return {
    status: "failed",
    code: last?.decline_code ?? last?.code ?? pi.status,
    message: last?.message ?? "The payment did not complete.",
    paymentIntentId: pi.id,
    retryable: !isHardDecline(last?.decline_code ?? last?.code),
  };
}

async function charge(input: ChargeInput & { onSession?: boolean; replay?: boolean }): Promise<ChargeResult> {
  const customer = input.customerId || (await customerFor({ id: input.userId }));
  try {
    const pi = await callStripe((s) =>
      s.paymentIntents.create(
        {
          customer,
          payment_method: input.paymentMethodId,
          amount: input.amountCents + (input.depositCents ?? 0),
          currency: "usd",
          confirm: true,
          ...(input.onSession
            ? { automatic_payment_methods: { enabled: true, allow_redirects: "never" as const } }
            : { off_session: true }),
          metadata: {
            pledgeId: input.pledgeId,
            campaignId: input.campaignId,
            userId: input.userId,
            attempt: String(input.attempt),
            ...(input.depositCents ? { depositCents: String(input.depositCents) } : {}),
          },
        },
        { idempotencyKey: chargeIdempotencyKey(input.pledgeId, input.attempt) },
      ),
    );
    return resultOfIntent(pi);
  } catch (err) {
    if (err instanceof Stripe.errors.StripeCardError) return mapCardError(err);
    if (err instanceof Stripe.errors.StripeIdempotencyError) {
      // The key was first used in the other mode: an on-session payment (the pay page, or the
      // committer's own charge at the tip) whose process died, re-driven off-session by the sweeper,
      // or the reverse. The same request in that mode is a replay: Stripe answers with what the
      // first one did, so its outcome is recorded, never a second payment.
      if (!input.replay) return charge({ ...input, onSession: !input.onSession, replay: true });
      // Still refused (parameters changed some other way): the outcome stays unknown to us. Never
      // retried by itself (a hard code); a success arrives by its webhook (a success always wins).
      return {
        status: "failed",
        code: "idempotency_conflict",
        message: "The payment could not be confirmed. Please try again.",
        retryable: false,
      };
    }
    if (
      err instanceof Stripe.errors.StripeInvalidRequestError &&
      (err.code === "resource_missing" || err.code === "payment_method_unexpected_state")
    ) {
      return {
        status: "failed",
        code: err.code,
        message: err.message,
        paymentIntentId: err.payment_intent?.id,
        retryable: false,
      };
    }
    throw err; // transport or server trouble: the outcome is unknown, the caller keeps the claim
  }
}

/**
 * For calls made while a person waits (saving a card, reading it back, the recovery page): a
 * provider outage becomes a 503 with a readable message instead of an unexpected error.
 */
async function forPerson<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof AppError) throw err;
    if (err instanceof Stripe.errors.StripeError) {
      console.warn(`[stripe] provider call failed: ${(err as Error).message}`);
      throw new AppError(
        "UNAVAILABLE",
        "The payment provider is unavailable right now. Please try again in a moment.",
      );
    }
    throw err;
  }
}

export function stripeGateway(): PaymentGateway {
  return {
    mode: "stripe",
    createSetupIntent: (user) =>
      forPerson(async () => {
        const customer = await customerFor(user);
        const si = await callStripe((s) =>
          s.setupIntents.create({
            customer,
            usage: "off_session",
            automatic_payment_methods: { enabled: true, allow_redirects: "never" },
            metadata: { userId: user.id },
          }),
        );
        if (!si.client_secret)
          throw new AppError("UNAVAILABLE", "The payment provider did not return a client secret.");
        return { clientSecret: si.client_secret };
      }),
    async getCard(user, paymentMethodId): Promise<CardSummary> {
      const row = await db.user.findUnique({ where: { id: user.id }, select: { stripeCustomerId: true } });
      let pm: Stripe.PaymentMethod;
      try {
        pm = await callStripe((s) => s.paymentMethods.retrieve(paymentMethodId));
      } catch (err) {
        if (err instanceof Stripe.errors.StripeInvalidRequestError)
          throw new AppError("BAD_REQUEST", "That payment method is not one of your saved cards.");
        return forPerson(() => Promise.reject(err));
      }
      const owner = typeof pm.customer === "string" ? pm.customer : pm.customer?.id;
      if (!row?.stripeCustomerId || owner !== row.stripeCustomerId || !pm.card) {
        throw new AppError("BAD_REQUEST", "That payment method is not one of your saved cards.");
      }
      return {
        paymentMethodId: pm.id,
        brand: pm.card.brand,
        last4: pm.card.last4,
        expMonth: pm.card.exp_month,
        expYear: pm.card.exp_year,
      };
    },
    charge: (input) => charge(input),
    chargeOnSession: (input) => forPerson(() => charge({ ...input, onSession: true })),
    retrieveIntent: (paymentIntentId) =>
      forPerson(async () => {
        const pi = await callStripe((s) => s.paymentIntents.retrieve(paymentIntentId));
        return { result: resultOfIntent(pi), clientSecret: pi.client_secret, metadata: pi.metadata ?? {} };
      }),
    async cancelIntent(paymentIntentId) {
      try {
        return resultOfIntent(await callStripe((s) => s.paymentIntents.cancel(paymentIntentId)));
      } catch (err) {
        // Not cancellable any more (it succeeded, or was already canceled): its state says which.
        if (!(err instanceof Stripe.errors.StripeInvalidRequestError)) throw err;
        return resultOfIntent(await callStripe((s) => s.paymentIntents.retrieve(paymentIntentId)));
      }
    },
    async refund({ key, paymentIntentId, amountCents }) {
      // the same parameters as ever under the same key: a refund asked before a deploy replays after it
      // (a full refund sends no amount, as it always has; a part of a charge names its amount)
      const r = await callStripe((s) =>
        s.refunds.create(
          { payment_intent: paymentIntentId, ...(amountCents !== undefined ? { amount: amountCents } : {}) },
          { idempotencyKey: key },
        ),
      );
      return { refundId: r.id };
    },
    async detach(paymentMethodId) {
      await callStripe((s) => s.paymentMethods.detach(paymentMethodId));
    },
    ...stripeConnect,
  };
}
