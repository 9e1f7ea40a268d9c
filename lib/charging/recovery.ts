import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { getGateway } from "@/lib/payments/gateway";
import { pledgeChargeCents } from "@/lib/events/lifecycle";
import { canActOnPledge } from "@/lib/access/rules";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { finalizeIfDone } from "@/lib/charging/run";
import {
  claimBatch,
  claimForOnSession,
  isRecoverable,
  recordChargeResult,
  STALE_CLAIM_MS,
} from "@/lib/ledger/pledge-state";
import {
  claimUnitForOnSession,
  recordOutcome,
  recordUnitResult,
  seatsAwaiting,
  unitsOf,
} from "@/lib/ledger/group-charges";
import { onChargeFailed } from "@/lib/charging/notify";
import { declineInPlainWords } from "@/lib/payments/declines";
import { formatInZone } from "@/lib/campaigns/event-time";
import { paymentDueBy, pledgeDueBy } from "@/lib/ledger/payment-window";
import type { Standing } from "@/lib/events/standing";
import { NOTHING_TO_PAY } from "@/lib/events/story";

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
export function paymentClosedReason(
  campaignStatus: string,
  pledge: { standing: Standing; dueBy: Date | null },
  now = new Date(),
): string | null {
  // issue 32: a commitment that no longer stands (or waits in line again) says why, in the one story
  if (pledge.standing !== "in" && pledge.standing !== "conditional") return NOTHING_TO_PAY[pledge.standing];
  if (pledge.dueBy && pledge.dueBy <= now)
    return "The time to pay for this commitment ran out, so your place is being released. You have not been charged, and you won't be.";
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
      droppedAt: true,
      paymentFailedAt: true,
      chargeUnitId: true,
      standing: true,
      campaign: {
        select: { ticketPriceCents: true, pactType: true, status: true, startsAt: true, depositCents: true },
      },
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
  const dueBy = pledgeDueBy(pledge);
  const closed = paymentClosedReason(pledge.campaign.status, { ...pledge, dueBy });
  if (closed) throw new AppError("CONFLICT", closed);
  if (!isRecoverable(pledge.chargeStatus)) {
    throw new AppError("CONFLICT", "There is no failed payment to complete for this commitment.");
  }
  const gateway = getGateway();
  const card = await gateway.getCard(viewer, input.paymentMethodId);
  // issue 37: a seat of a group's payment is paid with the group's seats, in one payment
  const unitId = pledge.chargeUnitId;
  const claim = unitId
    ? await claimUnitForOnSession(unitId, viewer.id, card)
    : await claimForOnSession(pledge.id, viewer.id, card).then((attempt) =>
        attempt === null ? null : { attempt, seats: 1 },
      );
  if (claim === null) throw new AppError("CONFLICT", "A payment for this commitment is already in progress.");
  const { attempt } = claim;
  const seatCents = pledgeChargeCents(pledge.campaign, pledge);
  const amountCents = seatCents * claim.seats;
  const result = await gateway.chargeOnSession({
    pledgeId: unitId ?? pledge.id,
    campaignId: pledge.campaignId,
    userId: viewer.id,
    paymentMethodId: card.paymentMethodId,
    amountCents,
    // each seat's show-up deposit (issue 36) rides in the same payment
    depositCents: pledge.campaign.depositCents * claim.seats,
    attempt,
  });
  if (unitId) await recordUnitResult(db, unitId, seatCents, amountCents, result, attempt, claim.seats);
  else await recordChargeResult(pledge.id, amountCents, result);
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
  if (pledge.droppedAt) {
    // The window closed while the bank was asking: the payment was cancelled at the drop (or, had
    // it gone through first, is recorded and refunded by the refund sweeper).
    if (pledge.paymentIntentId) {
      const { result } = await getGateway().retrieveIntent(pledge.paymentIntentId);
      if (result.status === "succeeded")
        await recordChargeResult(pledge.id, pledgeChargeCents(pledge.campaign, pledge), result);
    }
    return {
      status: "failed",
      message: paymentClosedReason(pledge.campaign.status, { ...pledge, dueBy: null }) ?? "",
    };
  }
  if (pledge.chargeStatus === "succeeded") return { status: "succeeded" };
  // issue 37: a group's payment is on its first seat
  const unitId = pledge.chargeUnitId;
  const payment = unitId
    ? await db.pledge.findUnique({ where: { id: unitId }, select: { paymentIntentId: true } })
    : pledge;
  if (!payment?.paymentIntentId || pledge.chargeStatus !== "requires_action") {
    throw new AppError("CONFLICT", "There is no payment waiting for authentication.");
  }
  const { result, metadata } = await getGateway().retrieveIntent(payment.paymentIntentId);
  if (metadata.pledgeId && metadata.pledgeId !== (unitId ?? pledge.id))
    throw new AppError("CONFLICT", "That payment belongs to another commitment.");
  if (result.status === "succeeded") {
    const seatCents = pledgeChargeCents(pledge.campaign, pledge);
    if (unitId) {
      const attempt = Number(metadata.attempt);
      const seats = await seatsAwaiting(db, unitId);
      await recordUnitResult(
        db,
        unitId,
        seatCents,
        seatCents * seats,
        result,
        attempt > 0 ? attempt : null,
        seats,
      );
    } else await recordChargeResult(pledge.id, seatCents, result);
    await finalizeIfDone(pledge.campaignId);
    return { status: "succeeded" };
  }
  return {
    status: "failed",
    message:
      result.status === "failed" ? result.message : "Authentication was not completed. Please try again.",
  };
}

/**
 * What the commit that tipped a paid event (or arrived after the tip) learned about its own payment
 * (SPEC §8, issue 19 item 2): charged; failed (the card is saved, the recovery window is open);
 * waiting for the bank's authentication, which the backer — present — completes in the dialog; or
 * still going when the time budget ran out (the backer is emailed the outcome).
 */
export type OwnPayment =
  | { status: "succeeded"; amountCents: number }
  | { status: "failed"; amountCents: number; reason: string; payUrl: string; dueText: string }
  | { status: "requires_action"; amountCents: number; clientSecret: string; payUrl: string; dueText: string }
  | { status: "pending" };

/** How long the committing request waits for its own charge before answering "being charged". */
export const OWN_CHARGE_BUDGET_MS = 8_000;

/**
 * Charges the committer's own pledge on-session right after the commit that tipped the event, so the
 * person who made it happen learns at once whether they are in: claimed like any charge (the
 * single pledge-state writer; a charging job that got there first simply has it, and this answers
 * "pending"), charged on-session so a bank may ask for authentication, and recorded whatever the
 * budget — a charge still in flight when it runs out finishes in the background, and should the
 * process die, the stale claim is re-driven with the same idempotency key. Everyone else's charge
 * stays with the charging job.
 */
export async function chargeOwnPledgeNow(
  viewer: { id: string },
  pledgeId: string,
  campaignId: string,
  budgetMs = OWN_CHARGE_BUDGET_MS,
): Promise<OwnPayment> {
  const [{ now }] = await db.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS "now"`;
  // the pledge, with its group's claimable seats (issue 37: one charge of seats × price)
  const [unit] = await unitsOf(await claimBatch(campaignId, STALE_CLAIM_MS, now, false, 1, pledgeId));
  const claim = unit?.lead;
  if (!claim || claim.userId !== viewer.id) return { status: "pending" };
  const campaign = await db.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { ticketPriceCents: true, pactType: true, startsAt: true, timeZone: true, depositCents: true },
  });
  const seatCents = pledgeChargeCents(campaign, claim);
  const amountCents = seatCents * unit.seatCount;
  const gateway = getGateway();
  const work = (async () => {
    const result = await gateway.chargeOnSession({
      pledgeId: claim.id,
      campaignId,
      userId: viewer.id,
      paymentMethodId: claim.paymentMethodId,
      amountCents,
      depositCents: campaign.depositCents * unit.seatCount,
      attempt: claim.chargeAttempts,
      customerId: claim.customerId,
    });
    const changed = await recordOutcome(unit, seatCents, result);
    // A bank's authentication is completed in the dialog; the reminders follow if it is not.
    if (
      changed &&
      (result.status === "failed" || (result.status === "requires_action" && gateway.mode !== "stripe"))
    )
      await onChargeFailed(pledgeId);
    if (result.status === "succeeded") await finalizeIfDone(campaignId);
    return result;
  })();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const outcome = await Promise.race([
    work.catch((err: Error) => {
      // unknown outcome: the claim stays, and the sweeper re-drives it with the same key
      console.warn(`[charging] own charge of ${pledgeId}: outcome unknown: ${err.message}`);
      return null;
    }),
    new Promise<null>((resolve) => (timer = setTimeout(() => resolve(null), budgetMs))),
  ]);
  clearTimeout(timer);
  const payUrl = `/pledges/${pledgeId}/pay`;
  if (!outcome) return { status: "pending" };
  // what the payment took: the ticket and a show-up deposit with it (issue 36)
  const paidCents = amountCents + campaign.depositCents * unit.seatCount;
  if (outcome.status === "succeeded") return { status: "succeeded", amountCents: paidCents };
  // the window opens with this failure (DESIGN §1 "failed payments")
  const dueText = formatInZone(paymentDueBy(new Date(), campaign.startsAt), campaign.timeZone);
  if (outcome.status === "requires_action") {
    const { clientSecret } = await gateway
      .retrieveIntent(outcome.paymentIntentId)
      .catch(() => ({ clientSecret: null }));
    if (clientSecret)
      return { status: "requires_action", amountCents: paidCents, clientSecret, payUrl, dueText };
  }
  const reason =
    outcome.status === "failed"
      ? declineInPlainWords(outcome.code, outcome.message)
      : declineInPlainWords("authentication_required", null);
  return { status: "failed", amountCents: paidCents, reason, payUrl, dueText };
}
