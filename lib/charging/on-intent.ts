import "server-only";
import type Stripe from "stripe";
import type { Prisma } from "@/lib/db";
import type { ChargeResult } from "@/lib/payments/types";
import { finalizeIfDone } from "@/lib/charging/run";
import { onChargeFailed } from "@/lib/charging/notify";
import { recordProviderFailure, recordProviderSuccess } from "@/lib/ledger/pledge-state";
import { recordUnitResult, seatsAwaiting } from "@/lib/ledger/group-charges";
import { pledgeChargeCents } from "@/lib/events/lifecycle";
import { handleStripeEventOnce } from "@/lib/payments/webhook";

/**
 * Stripe's payment_intent.* events (the route sends them here once lib/payments/webhook.ts verified
 * them). Deliveries are at least once and unordered, so each handler only moves a pledge
 * "forward": a success wins over any failure, and a failure applies only to the attempt the pledge
 * is on (metadata.attempt), so any delivery order converges to the same state.
 */
/** The event's PaymentIntent, if it carries a usable one. */
function intentOf(event: Stripe.Event): Stripe.PaymentIntent | null {
  const obj = (event.data as { object?: { id?: unknown; object?: unknown } } | undefined)?.object;
  return obj && typeof obj.id === "string" && obj.object === "payment_intent"
    ? (obj as Stripe.PaymentIntent)
    : null;
}

type Tx = Prisma.TransactionClient;
type Outcome = { campaignId?: string; failedPledgeId?: string };

async function findPledge(tx: Tx, pi: Stripe.PaymentIntent) {
  const raw: unknown = pi.metadata?.pledgeId;
  const pledgeId = typeof raw === "string" && raw.length <= 64 ? raw : null;
  const select = {
    id: true,
    campaignId: true,
    chargeStatus: true,
    chargeAttempts: true,
    paymentIntentId: true,
    chargeUnitId: true,
    amountCents: true,
    campaign: { select: { ticketPriceCents: true, pactType: true, depositCents: true } },
  } as const;
  const byMeta = pledgeId ? await tx.pledge.findUnique({ where: { id: pledgeId }, select }) : null;
  return byMeta ?? (await tx.pledge.findUnique({ where: { paymentIntentId: pi.id }, select }));
}

/** The attempt a payment was made for (its metadata, set by the gateway), if it says. */
function attemptOf(pi: Stripe.PaymentIntent): number | null {
  const a = Number(pi.metadata?.attempt);
  return Number.isInteger(a) && a > 0 ? a : null;
}

/** The deposit a payment carried (its metadata, set by the gateway), in cents. */
function depositOf(pi: Stripe.PaymentIntent): number {
  const d = Number(pi.metadata?.depositCents ?? 0);
  return Number.isInteger(d) && d > 0 && d <= pi.amount ? d : 0;
}

async function onIntentSucceeded(tx: Tx, pi: Stripe.PaymentIntent): Promise<Outcome> {
  const pledge = await findPledge(tx, pi);
  if (!pledge) return {};
  if (pledge.chargeUnitId === pledge.id) {
    // issue 37: a group's one payment pays the seats it was for
    const seatCents = pledgeChargeCents(pledge.campaign, pledge);
    const seats = await seatsAwaiting(tx, pledge.id);
    const total =
      Number.isInteger(pi.amount) && pi.amount > 0 ? pi.amount - depositOf(pi) : seatCents * seats;
    await recordUnitResult(
      tx,
      pledge.id,
      seatCents,
      total,
      { status: "succeeded", paymentIntentId: pi.id },
      attemptOf(pi),
      seats,
    );
    return { campaignId: pledge.campaignId };
  }
  await recordProviderSuccess(tx, pledge.id, {
    paymentIntentId: pi.id,
    chargedAt: Number.isInteger(pi.created) ? new Date(pi.created * 1000) : new Date(),
    // the ticket's part: a show-up deposit charged with it is its own money row (issue 36)
    amountCents: Number.isInteger(pi.amount) && pi.amount >= 0 ? pi.amount - depositOf(pi) : null,
    attempt: attemptOf(pi),
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
  if (pledge.chargeUnitId === pledge.id) {
    // issue 37: a group's payment fails for its seats together
    const seatCents = pledgeChargeCents(pledge.campaign, pledge);
    const seats = Math.max(1, await seatsAwaiting(tx, pledge.id));
    const changed = await recordUnitResult(
      tx,
      pledge.id,
      seatCents,
      seatCents * seats,
      {
        status: kind,
        code: kind === "requires_action" ? "authentication_required" : code,
        message: err?.message ?? "Your card was declined.",
        paymentIntentId: pi.id,
        retryable: false,
      } as ChargeResult,
      null,
      seats,
    );
    return changed
      ? { campaignId: pledge.campaignId, failedPledgeId: pledge.id }
      : { campaignId: pledge.campaignId };
  }
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

/** Handles one verified payment_intent.* event once. Returns false when its id was already handled. */
export async function handleIntentEvent(event: Stripe.Event): Promise<boolean> {
  const result = await handleStripeEventOnce(event, async (tx): Promise<Outcome> => {
    const pi = intentOf(event);
    if (!pi) return {};
    switch (event.type) {
      case "payment_intent.succeeded":
        return onIntentSucceeded(tx, pi);
      case "payment_intent.payment_failed":
        return onIntentUnsuccessful(tx, pi, "failed");
      case "payment_intent.requires_action":
        return onIntentUnsuccessful(tx, pi, "requires_action");
      default:
        return {};
    }
  });
  if (!result) return false;
  if (result.value.failedPledgeId) await onChargeFailed(result.value.failedPledgeId);
  if (result.value.campaignId) await finalizeIfDone(result.value.campaignId);
  return true;
}
