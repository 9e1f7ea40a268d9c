import "server-only";
import { Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import { recoveryDays } from "@/lib/ledger/payment-window";
import { depositKeptAtSql, depositOwedBackSql } from "@/lib/events/deposit";
import { seatMoneySql } from "@/lib/ledger/seat-money";

/**
 * An event's money, from the organizer's side (issue 23), in one place: what was collected, what
 * went back, the fees, what the organizer is owed, and what has moved already. Every figure is
 * summed in Postgres from the money rows (lib/ledger: charges and refunds that went through), the
 * pledges' withdrawals and fees, and the Payout rows (bigint cents), so the payout run, the
 * payout page, the CSV and the admin list cannot disagree.
 *
 *   net      = collected − refunded − owed back (a success on a withdrawn pledge, refunded next)
 *              − platform fee (per charge kept: the event's platformFeeBps of it + platformFeeFixedCents,
 *                the terms of PLATFORM_FEE_BPS / PLATFORM_FEE_FIXED_CENTS when it was created)
 *              − processing fee (the provider's, on every charge made: it keeps it on a refund)
 *            + deposits kept − the platform fee on them (issue 36: the event's platformFeeBps of each;
 *              a deposit held — before the end plus the grace, or owed back — is not the organizer's yet,
 *              so a check-in's refund never reverses a transfer)
 *   moved    = transfers − reversals (succeeded, or claimed and not yet known)
 *   due      = max(net, 0) − moved: > 0 is transferred after the hold, < 0 is reversed (refunds after
 *              a transfer). An organizer never owes more than was transferred: fees on an event
 *              refunded before any transfer are the platform's.
 */
export type Ledger = {
  collectedCents: number;
  refundedCents: number;
  owedBackCents: number;
  platformFeeCents: number;
  processingFeeCents: number;
  /** charges whose processing fee is not known yet (the payout run asks the provider first) */
  feesUnknown: number;
  netCents: number;
  transferredCents: number;
  reversedCents: number;
  /** movements claimed whose outcome is not known yet */
  inFlight: number;
  dueCents: number;
  /**
   * Issue 34: the same money counted in charges, so every surface says one figure: charges that went
   * through (collected), those refunded, and those kept — through, not refunded (yet), on a pledge
   * not withdrawn: check-and-charge's `totalCharged` (docs/decisions/one-money-figure.md).
   */
  chargeCount: number;
  refundCount: number;
  keptCount: number;
  /** issue 36, the show-up deposits: charged, refunded, held (not the organizer's yet), kept, the fee on those kept */
  depositChargedCents: number;
  depositRefundedCents: number;
  depositHeldCents: number;
  depositKeptCents: number;
  depositFeeCents: number;
  depositKeptCount: number;
};

/** Days after the tip before an event's money moves: never inside the failed-payment window. */
export const payoutHoldDays = () => Math.max(env().PAYOUT_HOLD_DAYS, recoveryDays());

/** When an event that tipped at `fundedAt` may be paid out (issue 23: the hold). */
export function payoutAvailableAt(fundedAt: Date): Date {
  return new Date(fundedAt.getTime() + payoutHoldDays() * 86_400_000);
}

/** The ledger of one event (`tx` may be a transaction holding the campaign row). */
export async function ledgerOf(tx: Prisma.TransactionClient, campaignId: string): Promise<Ledger> {
  const [row] = await tx.$queryRaw<Record<keyof Omit<Ledger, "netCents" | "dueCents">, number>[]>`
    WITH pl AS (
      -- each succeeded charge of a place (the money rows, lib/ledger; a group's charge once per seat
      -- it covers, lib/ledger/seat-money), whether a refund of it went through, and its pledge's
      -- withdrawal and the provider's fee (a group's on its payment's seat, the one with its id)
      SELECT m."amountCents", p."withdrawnAt", p."processingFeeCents", p."paymentIntentId",
        CASE WHEN EXISTS (SELECT 1 FROM "MoneyMovement" r WHERE r."pledgeId" = m."pledgeId"
                            AND r."kind" = 'refund' AND r."purpose" = m."purpose" AND r."state" = 'succeeded')
             THEN 'refunded' ELSE 'succeeded' END AS s
      FROM ${seatMoneySql({ campaignId })} m JOIN "Pledge" p ON p."id" = m."pledgeId"
      WHERE m."campaignId" = ${campaignId} AND m."kind" = 'charge' AND m."purpose" = 'ticket' AND m."state" = 'succeeded'
    ), dep AS (
      -- issue 36: each deposit charged, refunded or not, owed back or not, kept or not (lib/events/deposit)
      SELECT m."amountCents",
        EXISTS (SELECT 1 FROM "MoneyMovement" r WHERE r."pledgeId" = m."pledgeId" AND r."kind" = 'refund'
                  AND r."purpose" = 'deposit' AND r."state" = 'succeeded') AS refunded,
        ${Prisma.raw(depositOwedBackSql("p", "c"))} AS "owedBack",
        COALESCE(now() >= ${Prisma.raw(depositKeptAtSql("c"))}, false) AS "pastGrace"
      FROM ${seatMoneySql({ campaignId })} m JOIN "Pledge" p ON p."id" = m."pledgeId" JOIN "Campaign" c ON c."id" = m."campaignId"
      WHERE m."campaignId" = ${campaignId} AND m."kind" = 'charge' AND m."purpose" = 'deposit' AND m."state" = 'succeeded'
    ), terms AS (
      SELECT "platformFeeBps", "platformFeeFixedCents" FROM "Campaign" WHERE "id" = ${campaignId}
    ), mv AS (
      SELECT "kind"::text AS kind, "status"::text AS status, "amountCents" FROM "Payout" WHERE "campaignId" = ${campaignId}
    )
    SELECT
      COALESCE((SELECT sum("amountCents") FROM pl), 0)::float8 AS "collectedCents",
      COALESCE((SELECT sum("amountCents") FROM "MoneyMovement" WHERE "campaignId" = ${campaignId}
                AND "kind" = 'refund' AND "purpose" = 'ticket' AND "state" = 'succeeded'), 0)::float8 AS "refundedCents",
      COALESCE((SELECT sum("amountCents") FROM pl WHERE s = 'succeeded' AND "withdrawnAt" IS NOT NULL), 0)::float8 AS "owedBackCents",
      COALESCE((SELECT sum(round("amountCents"::numeric * t."platformFeeBps" / 10000) + t."platformFeeFixedCents")
                FROM pl, terms t WHERE s = 'succeeded' AND "withdrawnAt" IS NULL AND "amountCents" > 0), 0)::float8 AS "platformFeeCents",
      COALESCE((SELECT sum("processingFeeCents") FROM pl), 0)::float8 AS "processingFeeCents",
      (SELECT count(*) FROM pl WHERE "processingFeeCents" IS NULL AND "paymentIntentId" IS NOT NULL)::int AS "feesUnknown",
      COALESCE((SELECT sum("amountCents") FROM mv WHERE kind = 'transfer' AND status <> 'failed'), 0)::float8 AS "transferredCents",
      COALESCE((SELECT sum("amountCents") FROM mv WHERE kind = 'reversal' AND status <> 'failed'), 0)::float8 AS "reversedCents",
      (SELECT count(*) FROM mv WHERE status = 'processing')::int AS "inFlight",
      (SELECT count(*) FROM pl)::int AS "chargeCount",
      (SELECT count(*) FROM pl WHERE s = 'refunded')::int AS "refundCount",
      (SELECT count(*) FROM pl WHERE s = 'succeeded' AND "withdrawnAt" IS NULL)::int AS "keptCount",
      COALESCE((SELECT sum("amountCents") FROM dep), 0)::float8 AS "depositChargedCents",
      COALESCE((SELECT sum("amountCents") FROM dep WHERE refunded), 0)::float8 AS "depositRefundedCents",
      COALESCE((SELECT sum("amountCents") FROM dep WHERE NOT refunded AND ("owedBack" OR NOT "pastGrace")), 0)::float8 AS "depositHeldCents",
      COALESCE((SELECT sum("amountCents") FROM dep WHERE NOT refunded AND NOT "owedBack" AND "pastGrace"), 0)::float8 AS "depositKeptCents",
      COALESCE((SELECT sum(round("amountCents"::numeric * t."platformFeeBps" / 10000)) FROM dep, terms t
                WHERE NOT refunded AND NOT "owedBack" AND "pastGrace"), 0)::float8 AS "depositFeeCents",
      (SELECT count(*) FROM dep WHERE NOT refunded AND NOT "owedBack" AND "pastGrace")::int AS "depositKeptCount"`;
  const netCents =
    row.collectedCents -
    row.refundedCents -
    row.owedBackCents -
    row.platformFeeCents -
    row.processingFeeCents +
    row.depositKeptCents -
    row.depositFeeCents;
  return { ...row, netCents, dueCents: Math.max(netCents, 0) - (row.transferredCents - row.reversedCents) };
}
