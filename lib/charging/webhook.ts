import "server-only";
import Stripe from "stripe";
import { db, Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { finalizeIfDone } from "@/lib/charging/run";
import { onChargeFailed } from "@/lib/charging/notify";
import { recordProviderFailure, recordProviderSuccess } from "@/lib/charging/pledge-state";
import { getGateway } from "@/lib/payments/gateway";
import { applyAccountState } from "@/lib/payouts/accounts";
import { recordTransferReport } from "@/lib/payouts/service";

/**
 * Stripe webhooks (POST /api/stripe/webhook). Deliveries are at least once and unordered, so:
 * each event id is stored under a unique key in the same transaction as its effect (handled once;
 * a failed handling rolls back and Stripe redelivers), and each handler only moves a pledge
 * "forward": a success wins over any failure, and a failure applies only to the attempt the pledge
 * is on (metadata.attempt), so any delivery order converges to the same state.
 */
export function verifyStripeEvent(rawBody: string, signature: string | null): Stripe.Event {
  // The platform's endpoint secret, and Connect's (events of organizers' accounts, issue 23).
  const secrets = [env().STRIPE_WEBHOOK_SECRET, env().STRIPE_CONNECT_WEBHOOK_SECRET].filter(
    Boolean,
  ) as string[];
  // 404: without a secret the endpoint does not exist here (a 5xx would claim a server fault)
  if (secrets.length === 0)
    throw new AppError("NOT_FOUND", "Stripe webhooks are not configured on this server.");
  if (!signature) throw new AppError("BAD_REQUEST", "Missing Stripe-Signature header.");
  let event: Stripe.Event | null = null;
  for (const secret of secrets) {
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signature, secret);
      break;
    } catch {
      // the other secret, if any
    }
  }
  if (!event) throw new AppError("BAD_REQUEST", "Invalid Stripe webhook signature.");
  if (!event || typeof event.id !== "string" || typeof event.type !== "string" || event.id.length > 255) {
    throw new AppError("BAD_REQUEST", "The webhook body is not a Stripe event.");
  }
  return event;
}

/** The event's PaymentIntent, if it carries a usable one. */
function intentOf(event: Stripe.Event): Stripe.PaymentIntent | null {
  const obj = (event.data as { object?: { id?: unknown; object?: unknown } } | undefined)?.object;
  return obj && typeof obj.id === "string" && obj.object === "payment_intent"
    ? (obj as Stripe.PaymentIntent)
    : null;
}

type Tx = Prisma.TransactionClient;
type Outcome = {
  campaignId?: string;
  failedPledgeId?: string;
  /** issue 23: an organizer's account changed, or a transfer of a payout was reported */
  account?: Stripe.Account;
  transfer?: { payoutId: string; id: string };
};

async function findPledge(tx: Tx, pi: Stripe.PaymentIntent) {
  const raw: unknown = pi.metadata?.pledgeId;
  const pledgeId = typeof raw === "string" && raw.length <= 64 ? raw : null;
  const select = {
    id: true,
    campaignId: true,
    chargeStatus: true,
    chargeAttempts: true,
    paymentIntentId: true,
  } as const;
  const byMeta = pledgeId ? await tx.pledge.findUnique({ where: { id: pledgeId }, select }) : null;
  return byMeta ?? (await tx.pledge.findUnique({ where: { paymentIntentId: pi.id }, select }));
}

async function onIntentSucceeded(tx: Tx, pi: Stripe.PaymentIntent): Promise<Outcome> {
  const pledge = await findPledge(tx, pi);
  if (!pledge) return {};
  await recordProviderSuccess(tx, pledge.id, {
    paymentIntentId: pi.id,
    chargedAt: Number.isInteger(pi.created) ? new Date(pi.created * 1000) : new Date(),
    amountCents: Number.isInteger(pi.amount) && pi.amount >= 0 ? pi.amount : null,
  });
  return { campaignId: pledge.campaignId };
}

async function onIntentUnsuccessful(
  tx: Tx,
  pi: Stripe.PaymentIntent,
  kind: "failed" | "requires_action",
): Promise<Outcome> {
  const pledge = await findPledge(tx, pi);
  if (!pledge) return {};
  const attempt = Number(pi.metadata?.attempt);
  const sameAttempt = Number.isFinite(attempt)
    ? attempt === pledge.chargeAttempts
    : pledge.paymentIntentId === pi.id;
  if (!sameAttempt || pledge.chargeStatus === "succeeded" || pledge.chargeStatus === "refunded") return {};
  const err = pi.last_payment_error;
  const code =
    kind === "requires_action"
      ? "authentication_required"
      : (err?.decline_code ?? err?.code ?? "card_declined");
  const changed = await recordProviderFailure(tx, pledge, {
    kind,
    code,
    message:
      err?.message ??
      (kind === "requires_action" ? "This transaction requires authentication." : "Your card was declined."),
    paymentIntentId: pi.id,
  });
  return changed && pledge.chargeStatus !== kind
    ? { campaignId: pledge.campaignId, failedPledgeId: pledge.id }
    : { campaignId: pledge.campaignId };
}

/** Handles one verified event once. Returns false when the event id was already handled. */
export async function handleStripeEvent(event: Stripe.Event): Promise<boolean> {
  const result = await db.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO "StripeEvent" ("id", "type", "receivedAt") VALUES (${event.id}, ${event.type}, now()) ON CONFLICT ("id") DO NOTHING`;
    if (inserted === 0) return null;
    let outcome: Outcome = {};
    const pi = intentOf(event);
    switch (event.type) {
      case "payment_intent.succeeded":
        if (pi) outcome = await onIntentSucceeded(tx, pi);
        break;
      case "payment_intent.payment_failed":
        if (pi) outcome = await onIntentUnsuccessful(tx, pi, "failed");
        break;
      case "payment_intent.requires_action":
        if (pi) outcome = await onIntentUnsuccessful(tx, pi, "requires_action");
        break;
      case "account.updated": {
        const a = event.data.object as Stripe.Account;
        if (a?.object === "account" && typeof a.id === "string") outcome = { account: a };
        break;
      }
      case "transfer.created":
      case "transfer.updated": {
        const t = event.data.object as Stripe.Transfer;
        const payoutId = t?.metadata?.payoutId;
        if (
          t?.object === "transfer" &&
          typeof t.id === "string" &&
          typeof payoutId === "string" &&
          payoutId.length <= 64
        )
          outcome = { transfer: { payoutId, id: t.id } };
        break;
      }
      case "setup_intent.succeeded":
      case "setup_intent.setup_failed":
        // A saved card reaches a pledge only through the commit (which re-reads the payment
        // method from Stripe), so there is no pledge state to move; the event is recorded.
        break;
      default:
        break;
    }
    await tx.stripeEvent.update({ where: { id: event.id }, data: { processedAt: new Date() } });
    return outcome;
  });
  if (!result) return false;
  if (result.failedPledgeId) await onChargeFailed(result.failedPledgeId);
  try {
    // Events of organizers' accounts arrive in any order: the account is read again rather than
    // taken from the event's copy, which may be older than one already applied.
    if (result.account)
      await applyAccountState(result.account.id, await getGateway().readPayoutAccount(result.account.id));
    if (result.transfer) await recordTransferReport(result.transfer.payoutId, result.transfer.id);
  } catch (err) {
    // Not applied: forget the event so Stripe's redelivery is handled, not answered "duplicate".
    await db.stripeEvent.deleteMany({ where: { id: event.id } });
    throw err;
  }
  if (result.campaignId) await finalizeIfDone(result.campaignId);
  return true;
}
