import "server-only";
import { db } from "@/lib/db";
import { livePledgeSql, memberPledgeSql } from "@/lib/events/sql";
import { pledgeChargeCents } from "@/lib/events/lifecycle";
import {
  isRecoverable,
  LIVE_PLEDGE,
  OUTCOME_STATES,
  pledgeStatesIn,
  RECOVERABLE_STATES,
} from "@/lib/ledger/pledge-state";
import { seatsAwaiting } from "@/lib/ledger/group-charges";
import { pledgeDueBy, softRetrySql, stillPayableSql } from "@/lib/ledger/payment-window";

/**
 * SPEC §7 response of POST /api/check-and-charge, for one campaign. Its four keys are the same for
 * every caller; the per-pledge rows are not (DESIGN §1 "check-and-charge"): the organizer and admins
 * get every row, a backer only the row of their own pledge, anyone else none — a pledge id or user id
 * in a public answer would tie an "Anonymous Attendee" row to a person.
 */
export type ChargeSummary = {
  successful: { pledgeId: string; userId: string; paymentIntentId: string }[];
  failed: { pledgeId: string; userId: string; code: string; message: string }[];
  totalCharged: number;
  totalFailed: number;
};

/** Whose rows a summary may list: every pledge's, one user's own, or none. */
type ChargeRowsAudience = { all: true } | { userId: string } | null;

export async function getChargeSummary(
  campaignId: string,
  audience: ChargeRowsAudience,
): Promise<ChargeSummary> {
  const pledges = await db.pledge.findMany({
    where: {
      campaignId,
      chargeStatus: { in: [...OUTCOME_STATES] },
      OR: [{ chargeType: null }, { chargeType: "paid" }],
      ...LIVE_PLEDGE,
    },
    select: {
      id: true,
      userId: true,
      chargeStatus: true,
      paymentIntentId: true,
      chargeUnitId: true,
      chargeFailureCode: true,
      chargeFailureMessage: true,
    },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  // issue 37: a seat of a group's payment carries no payment id of its own: the payment is its unit's
  const units = [...new Set(pledges.flatMap((p) => (p.chargeUnitId ? [p.chargeUnitId] : [])))];
  const unitPayments = new Map(
    units.length === 0
      ? []
      : (
          await db.pledge.findMany({
            where: { id: { in: units }, paymentIntentId: { not: null } },
            select: { id: true, paymentIntentId: true },
          })
        ).map((u) => [u.id, u.paymentIntentId]),
  );
  const paymentOf = (p: { paymentIntentId: string | null; chargeUnitId: string | null }) =>
    p.paymentIntentId ?? (p.chargeUnitId ? (unitPayments.get(p.chargeUnitId) ?? null) : null);
  const succeeded = pledges
    .map((p) => ({ ...p, paymentIntentId: paymentOf(p) }))
    .filter((p) => p.chargeStatus === "succeeded" && p.paymentIntentId);
  const notSucceeded = pledges.filter((p) => p.chargeStatus !== "succeeded");
  const listed = (p: { userId: string }) =>
    audience !== null && ("all" in audience || audience.userId === p.userId);
  const successful = succeeded
    .filter(listed)
    .map((p) => ({ pledgeId: p.id, userId: p.userId, paymentIntentId: p.paymentIntentId as string }));
  const failed = notSucceeded.filter(listed).map((p) => ({
    pledgeId: p.id,
    userId: p.userId,
    code: p.chargeFailureCode ?? "card_declined",
    message: p.chargeFailureMessage ?? "The charge failed.",
  }));
  return { successful, failed, totalCharged: succeeded.length, totalFailed: notSucceeded.length };
}

/** The recovery page's view of a pledge: only its backer may see it. */
export async function getPledgeForPayment(pledgeId: string, userId: string) {
  const pledge = await db.pledge.findUnique({
    where: { id: pledgeId },
    select: {
      id: true,
      userId: true,
      amountCents: true,
      chargeStatus: true,
      chargeFailureCode: true,
      chargeFailureMessage: true,
      chargedAt: true,
      cardBrand: true,
      cardLast4: true,
      paymentIntentId: true,
      withdrawnAt: true,
      droppedAt: true,
      paymentFailedAt: true,
      standing: true,
      chargeUnitId: true,
      campaign: {
        select: {
          id: true,
          title: true,
          ticketPriceCents: true,
          pactType: true,
          status: true,
          timeZone: true,
          startsAt: true,
          depositCents: true,
        },
      },
    },
  });
  if (!pledge || pledge.userId !== userId) return null;
  // the ticket's part; a show-up deposit is paid in the same payment (issue 36): depositCents. A
  // group's payment (issue 37) is for every seat of it still to pay: seats × price
  const seats =
    pledge.chargeUnitId && isRecoverable(pledge.chargeStatus)
      ? await seatsAwaiting(db, pledge.chargeUnitId)
      : 1;
  const amountCents = pledgeChargeCents(pledge.campaign, pledge) * Math.max(1, seats);
  // each seat's show-up deposit rides in the same payment
  const depositCents = pledge.campaign.depositCents * Math.max(1, seats);
  // the recovery window (DESIGN §1 "failed payments"): when a failed payment must be paid by
  const dueBy = pledgeDueBy(pledge);
  return { ...pledge, amountCents, depositCents, dueBy };
}

/**
 * The organizer's payment counts (DESIGN §1 "failed payments"): what a manual charge would take now
 * (never charged, or a soft decline still owed its one retry inside its window — the claim's own
 * rule), failed payments waiting for the backer's new card, those an automatic retry is still to
 * come for, and those dropped when their window closed.
 */
export async function paymentCounts(campaignId: string) {
  const [row] = await db.$queryRaw<
    { chargeable: number; awaitingCard: number; retrying: number; dropped: number }[]
  >`
    SELECT
      count(*) FILTER (WHERE ${memberPledgeSql("p")} AND p."paymentMethodId" IS NOT NULL AND p."charged" = false
        AND (p."chargeStatus" = 'none' OR (${softRetrySql("p")} AND ${stillPayableSql("p")})))::int AS "chargeable",
      count(*) FILTER (WHERE ${livePledgeSql("p")} AND p."chargeStatus" IN (${pledgeStatesIn(RECOVERABLE_STATES)}) AND NOT ${softRetrySql("p")})::int AS "awaitingCard",
      count(*) FILTER (WHERE ${livePledgeSql("p")} AND ${softRetrySql("p")})::int AS "retrying",
      count(*) FILTER (WHERE p."droppedAt" IS NOT NULL)::int AS "dropped"
    FROM "Pledge" p WHERE p."campaignId" = ${campaignId}`;
  return row;
}
