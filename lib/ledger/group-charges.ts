import "server-only";
import { db, Prisma } from "@/lib/db";
import type { CardSummary, ChargeResult } from "@/lib/payments/types";
import { CHARGE_MOVEMENT_RETURNING, chargeMovementSql } from "@/lib/ledger/movements";
import {
  pledgeStatesIn,
  recordChargeResult,
  RECOVERABLE_STATES,
  SETTLED_STATES,
  SUCCESS_MAY_FOLLOW,
  type ClaimedPledge,
} from "@/lib/ledger/pledge-state";
import { memberPledgeSql, statusIn } from "@/lib/events/sql";
import { CONFIRMED_STATUSES } from "@/lib/events/lifecycle";
import { stillPayableSql } from "@/lib/ledger/payment-window";

/**
 * Paid groups (issue 37, docs/decisions/group-commitments.md): a group's seats claimed together are
 * one charge unit, paid by ONE charge of seats × price on the holder's card. The unit's first seat
 * (the holder's own when it is in the unit) carries the payment: its id and attempt make the
 * idempotency key, its money row is the unit's one charge, and `MoneyMovementPledge` says which seats
 * that row covers and each one's share (lib/ledger/seat-money.ts is how readers see it). Every seat of
 * the unit carries the unit's id (`Pledge.chargeUnitId`, written by the claim), so a stale claim is
 * re-driven with the same key for the same seats, and an outcome is recorded on every seat at once.
 */

export type ChargeUnit = {
  /** the seat whose id and attempt make the idempotency key and whose money row is the charge */
  lead: ClaimedPledge;
  /** the seats of the unit this claim holds */
  seats: ClaimedPledge[];
  /** how many seats the unit's charge covers (for a re-drive: every seat the first claim took) */
  seatCount: number;
};

/** Whether a claimed pledge is one seat of a group's charge unit (else it is charged alone). */
export const inUnit = (p: ClaimedPledge) => p.chargeUnitId !== null;

/**
 * The claimed pledges as charge units, in claim order: a pledge alone is a unit of one; the seats
 * sharing a unit id are one. A re-driven unit counts every seat stored under its id (a concurrent
 * run may hold some of them: both then send the same key for the same amount).
 */
export async function unitsOf(rows: ClaimedPledge[]): Promise<ChargeUnit[]> {
  const units = new Map<string, ChargeUnit>();
  for (const p of rows) {
    const key = p.chargeUnitId ?? p.id;
    const unit = units.get(key);
    if (unit) unit.seats.push(p);
    else units.set(key, { lead: p, seats: [p], seatCount: 1 });
  }
  const grouped = [...units.entries()].filter(([, u]) => inUnit(u.lead));
  if (grouped.length > 0) {
    // the seats still claimed under the unit: exactly those its claim took (they are recorded together)
    const counts = await db.$queryRaw<{ unit: string; n: number }[]>`
      SELECT "chargeUnitId" AS "unit", count(*)::int AS "n" FROM "Pledge"
      WHERE "chargeUnitId" = ANY(${grouped.map(([k]) => k)}::text[]) AND "chargeStatus" = 'processing'
      GROUP BY "chargeUnitId"`;
    const byUnit = new Map(counts.map((c) => [c.unit, c.n]));
    for (const [key, u] of grouped) {
      u.lead = u.seats.find((s) => s.id === key) ?? u.seats[0]!;
      u.seatCount = Math.max(byUnit.get(key) ?? 0, u.seats.length);
    }
  }
  return [...units.values()];
}

/** A claimed unit's outcome, recorded on its one pledge or on every seat of it (`seatCents`: each seat's part). */
export async function recordOutcome(
  u: ChargeUnit,
  seatCents: number,
  result: ChargeResult,
): Promise<boolean> {
  return u.lead.chargeUnitId === null
    ? recordChargeResult(u.lead.id, seatCents, result)
    : recordUnitResult(
        db,
        u.lead.chargeUnitId,
        seatCents,
        seatCents * u.seatCount,
        result,
        u.lead.chargeAttempts,
        u.seatCount,
      );
}

/**
 * Records a unit's outcome on every seat of it, with the unit's one money row (the lead's, the whole
 * amount `totalCents`) and the rows saying which seats it covers, in one statement. A success is the
 * provider's word that money moved: every seat of the unit not already paid that was claimed or
 * still holds its place is marked paid, with its share (`seatCents`); only the lead carries the
 * payment's id (it is unique). A failure applies to the seats still claimed. Returns whether any
 * seat changed. At an event with a show-up deposit (issue 36) the payment also carried `seats`
 * deposits: the unit's deposit row is seats × the deposit, and it covers each seat with the deposit,
 * so each seat's deposit is refunded (or kept) on its own (lib/ledger/deposits reads it per seat).
 */
export async function recordUnitResult(
  tx: Prisma.TransactionClient,
  unitId: string,
  seatCents: number,
  totalCents: number,
  result: ChargeResult,
  /** the attempt of the unit's first seat this outcome is for, when known (a webhook's metadata) */
  attempt: number | null,
  /** how many seats the payment is for (each carried the event's show-up deposit, if any) */
  seats: number,
): Promise<boolean> {
  const total = totalCents;
  const known = attempt !== null && Number.isInteger(attempt) && attempt > 0;
  const thisAttempt = known
    ? Prisma.sql`${attempt}::int`
    : Prisma.sql`(SELECT GREATEST(l."chargeAttempts", 1) FROM "Pledge" l WHERE l."id" = ${unitId})`;
  const succeeded = result.status === "succeeded";
  const state = succeeded ? "succeeded" : result.status === "requires_action" ? "requires_action" : "failed";
  const providerId = result.paymentIntentId ?? null;
  const failureCode = result.status === "succeeded" ? null : result.code;
  const set = succeeded
    ? Prisma.sql`"chargeStatus" = 'succeeded', "charged" = true, "verified" = true, "chargedAt" = ${new Date()},
        "chargeType" = 'paid', "amountCents" = ${seatCents}, "chargeFailureCode" = NULL, "chargeFailureMessage" = NULL,
        "paymentIntentId" = CASE WHEN "id" = ${unitId} THEN ${providerId}::text END`
    : Prisma.sql`"chargeStatus" = ${state}::"PledgeChargeStatus", "chargeFailureCode" = ${result.code},
        "chargeFailureMessage" = ${result.message.slice(0, 500)},
        "paymentIntentId" = CASE WHEN "id" = ${unitId} THEN COALESCE(${providerId}::text, "paymentIntentId") END`;
  // A success pays the seats this attempt was for: those claimed for it, those its earlier report
  // (the bank asking, a failure) recorded as covered — a seat given up or dropped since included:
  // the provider took its share, which the refund sweeper gives back — and the seats still in.
  const coveredByAttempt = Prisma.sql`"id" IN (SELECT x."pledgeId" FROM "MoneyMovementPledge" x
      JOIN "MoneyMovement" a ON a."id" = x."movementId"
      WHERE a."idempotencyKey" = 'pledge-' || ${unitId}::text || '-attempt-' || ${thisAttempt})`;
  const which = succeeded
    ? Prisma.sql`"chargeStatus" IN (${pledgeStatesIn(SUCCESS_MAY_FOLLOW)})
        AND ("chargeStatus" = 'processing' OR ${memberPledgeSql()} OR ${coveredByAttempt})`
    : Prisma.sql`"chargeStatus" = 'processing'`;
  const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
    WITH p AS (
      UPDATE "Pledge" SET ${set} WHERE "chargeUnitId" = ${unitId} AND ${which}
      RETURNING ${CHARGE_MOVEMENT_RETURNING}
    ), lead AS (SELECT * FROM p WHERE "id" = ${unitId}),
    m AS (${chargeMovementSql("lead", state, { failureCode, providerId, amountCents: total, attempt: known ? attempt : null, depositSeats: seats })}),
    covers AS (
      INSERT INTO "MoneyMovementPledge" ("movementId", "pledgeId", "amountCents")
      SELECT m."id", p."id", CASE WHEN m."purpose" = 'ticket' THEN ${seatCents}::bigint ELSE c."depositCents"::bigint END
      FROM m CROSS JOIN p JOIN "Campaign" c ON c."id" = p."campaignId"
      ON CONFLICT DO NOTHING
    )
    SELECT count(*)::int AS "n" FROM p`;
  return n > 0;
}

/**
 * The holder pays a group's failed payment themselves (on-session, /pledges/{id}/pay): every seat of
 * the unit still in its recovery window is claimed with the card just given, a new attempt of the
 * unit's first seat (a new key). Only while the event is confirmed, only the group's holder, and only
 * with the first seat among them. Returns the attempt and how many seats it pays for, or null.
 */
export async function claimUnitForOnSession(
  unitId: string,
  userId: string,
  card: CardSummary,
): Promise<{ attempt: number; seats: number } | null> {
  const payable = (p: string) => Prisma.sql`${Prisma.raw(p)}."chargeUnitId" = ${unitId}
    AND ${Prisma.raw(p)}."chargeStatus" IN (${pledgeStatesIn(RECOVERABLE_STATES)})
    AND ${memberPledgeSql(p)} AND ${stillPayableSql(p)}`;
  const rows = await db.$queryRaw<{ id: string; chargeAttempts: number }[]>`
    UPDATE "Pledge" AS s SET "chargeStatus" = 'processing', "chargeClaimedAt" = clock_timestamp(),
      "chargeAttempts" = s."chargeAttempts" + 1,
      "paymentMethodId" = ${card.paymentMethodId}, "cardBrand" = ${card.brand}, "cardLast4" = ${card.last4}
    WHERE ${payable("s")}
      AND EXISTS (SELECT 1 FROM "Pledge" l WHERE l."id" = ${unitId} AND ${payable("l")})
      AND EXISTS (SELECT 1 FROM "Pledge" h WHERE h."id" = s."groupId" AND h."userId" = ${userId})
      AND EXISTS (SELECT 1 FROM "Campaign" c WHERE c."id" = s."campaignId" AND c."status" IN (${statusIn(CONFIRMED_STATUSES)}))
    RETURNING s."id", s."chargeAttempts"`;
  const lead = rows.find((r) => r.id === unitId);
  return lead ? { attempt: lead.chargeAttempts, seats: rows.length } : null;
}

/** How many seats of a unit its payment is for while it is not through (a late report, an authentication). */
export async function seatsAwaiting(tx: Prisma.TransactionClient, unitId: string): Promise<number> {
  return tx.pledge.count({ where: { chargeUnitId: unitId, chargeStatus: { notIn: [...SETTLED_STATES] } } });
}
