import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getGateway } from "@/lib/payments/gateway";
import { pledgeChargeCents } from "@/lib/campaigns/lifecycle";
import { canActOnPledge } from "@/lib/access/rules";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { finalizeIfDone } from "@/lib/charging/run";
import { claimForOnSession, isRecoverable, recordChargeResult } from "@/lib/charging/pledge-state";

/**
 * On-session recovery (DESIGN §1 "failed payments"): the backer pays a failed or
 * authentication-blocked charge themselves, on /pledges/{id}/pay.
 */
type Viewer = { id: string; isAdmin: boolean };

export type PayPledgeResult =
  | { status: "succeeded" }
  | { status: "failed"; message: string }
  | { status: "requires_action"; clientSecret: string };

/**
 * Why the recovery page may not take money now, or null: a cancelled or expired event is not
 * charged (issue 14: a payment taken after a cancellation was refunded a minute later).
 */
export function paymentClosedReason(campaignStatus: string, withdrawnAt: Date | null = null): string | null {
  if (withdrawnAt) return "You withdrew from this event, so there is nothing to pay.";
  if (campaignStatus === "cancelled")
    return "This event was cancelled, so there is nothing to pay. Nobody will be charged.";
  if (campaignStatus === "expired")
    return "This event did not reach its goal, so there is nothing to pay. Nobody will be charged.";
  return null;
}

async function ownedPledge(viewer: Viewer, pledgeId: string) {
  const pledge = await db.pledge.findUnique({
    where: { id: pledgeId },
    select: {
      id: true,
      userId: true,
      campaignId: true,
      amountCents: true,
      chargeStatus: true,
      paymentIntentId: true,
      chargeAttempts: true,
      withdrawnAt: true,
      campaign: { select: { ticketPriceCents: true, pactType: true, status: true } },
    },
  });
  // Someone else's pledge does not exist for this viewer.
  if (!pledge || !canActOnPledge(viewer, pledge))
    throw new AppError("NOT_FOUND", ACCESS_TEXTS.pledgeNotFound);
  return pledge;
}

/**
 * The backer pays a failed or authentication-blocked charge on-session with a newly saved card
 * (DESIGN §1 "failed charges"). The pledge is claimed like any charge (new attempt, new idempotency
 * key); with Stripe, a card that needs authentication returns a client secret for the browser to
 * complete with Stripe.js, then `confirmPledgePayment` records the result.
 */
export async function payPledgeOnSession(
  viewer: Viewer & { email: string },
  input: { pledgeId: string; paymentMethodId: string },
): Promise<PayPledgeResult> {
  const pledge = await ownedPledge(viewer, input.pledgeId);
  if (pledge.chargeStatus === "succeeded")
    throw new AppError("CONFLICT", "This commitment has already been paid.");
  const closed = paymentClosedReason(pledge.campaign.status, pledge.withdrawnAt);
  if (closed) throw new AppError("CONFLICT", closed);
  if (!isRecoverable(pledge.chargeStatus)) {
    throw new AppError("CONFLICT", "There is no failed payment to complete for this commitment.");
  }
  const gateway = getGateway();
  const card = await gateway.getCard(viewer, input.paymentMethodId);
  const attempt = await claimForOnSession(pledge.id, viewer.id, card);
  if (attempt === null)
    throw new AppError("CONFLICT", "A payment for this commitment is already in progress.");
  const amountCents = pledgeChargeCents(pledge.campaign, pledge);
  const result = await gateway.chargeOnSession({
    pledgeId: pledge.id,
    campaignId: pledge.campaignId,
    userId: viewer.id,
    paymentMethodId: card.paymentMethodId,
    amountCents,
    attempt,
  });
  await recordChargeResult(pledge.id, amountCents, result);
  if (result.status === "succeeded") {
    await finalizeIfDone(pledge.campaignId);
    return { status: "succeeded" };
  }
  if (result.status === "requires_action") {
    const { clientSecret } = await gateway.retrieveIntent(result.paymentIntentId);
    if (clientSecret) return { status: "requires_action", clientSecret };
    return { status: "failed", message: result.message };
  }
  return { status: "failed", message: result.message };
}

/** After the browser completed authentication: reads the payment's state from the provider and records it. */
export async function confirmPledgePayment(viewer: Viewer, pledgeId: string): Promise<PayPledgeResult> {
  const pledge = await ownedPledge(viewer, pledgeId);
  if (pledge.chargeStatus === "succeeded") return { status: "succeeded" };
  if (!pledge.paymentIntentId || pledge.chargeStatus !== "requires_action") {
    throw new AppError("CONFLICT", "There is no payment waiting for authentication.");
  }
  const { result, metadata } = await getGateway().retrieveIntent(pledge.paymentIntentId);
  if (metadata.pledgeId && metadata.pledgeId !== pledge.id)
    throw new AppError("CONFLICT", "That payment belongs to another commitment.");
  if (result.status === "succeeded") {
    await recordChargeResult(pledge.id, pledgeChargeCents(pledge.campaign, pledge), result);
    await finalizeIfDone(pledge.campaignId);
    return { status: "succeeded" };
  }
  return {
    status: "failed",
    message:
      result.status === "failed" ? result.message : "Authentication was not completed. Please try again.",
  };
}
