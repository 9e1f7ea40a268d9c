import "server-only";
import { db, Prisma } from "@/lib/db";
import type { ChargeResult } from "@/lib/payments/types";
import { CHARGE_MOVEMENT_RETURNING, chargeMovementSql } from "@/lib/ledger/movements";
import { pledgeStatesIn, SUCCESS_MAY_FOLLOW, type ClaimedPledge } from "@/lib/ledger/pledge-state";

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
    const counts = await db.$queryRaw<{ unit: string; n: number }[]>`
      SELECT "chargeUnitId" AS "unit", count(*)::int AS "n" FROM "Pledge"
      WHERE "chargeUnitId" = ANY(${grouped.map(([k]) => k)}::text[]) GROUP BY "chargeUnitId"`;
    const byUnit = new Map(counts.map((c) => [c.unit, c.n]));
    for (const [key, u] of grouped) {
      u.lead = u.seats.find((s) => s.id === key) ?? u.seats[0]!;
      u.seatCount = Math.max(byUnit.get(key) ?? 0, u.seats.length);
    }
  }
  return [...units.values()];
}

/**
 * Records a unit's outcome on every seat of it, with the unit's one money row (the lead's, the whole
 * amount) and the rows saying which seats it covers, in one statement. A success is the provider's
 * word that money moved: every seat not already paid is marked paid, with its share (`seatCents`);
 * only the lead carries the payment's id (it is unique). A failure applies to the seats still
 * claimed. Returns whether any seat changed.
 */
export async function recordUnitResult(
  unitId: string,
  seatCents: number,
  seatCount: number,
  result: ChargeResult,
): Promise<boolean> {
  const total = seatCents * seatCount;
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
  const which = succeeded
    ? Prisma.sql`"chargeStatus" IN (${pledgeStatesIn(SUCCESS_MAY_FOLLOW)})`
    : Prisma.sql`"chargeStatus" = 'processing'`;
  const [{ n }] = await db.$queryRaw<{ n: number }[]>`
    WITH p AS (
      UPDATE "Pledge" SET ${set} WHERE "chargeUnitId" = ${unitId} AND ${which}
      RETURNING ${CHARGE_MOVEMENT_RETURNING}
    ), lead AS (SELECT * FROM p WHERE "id" = ${unitId}),
    m AS (${chargeMovementSql("lead", state, { failureCode, providerId, amountCents: total })}),
    covers AS (
      INSERT INTO "MoneyMovementPledge" ("movementId", "pledgeId", "amountCents")
      SELECT m."id", p."id", ${seatCents}::bigint FROM m CROSS JOIN p WHERE m."purpose" = 'ticket'
      ON CONFLICT DO NOTHING
    )
    SELECT count(*)::int AS "n" FROM p`;
  return n > 0;
}
