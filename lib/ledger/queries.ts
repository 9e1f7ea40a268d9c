import "server-only";
import { createHash } from "node:crypto";
import { db, Prisma } from "@/lib/db";
import { seatMoneySql } from "@/lib/ledger/seat-money";

/**
 * What the money rows say about pledges (issue 32 item 4), for the presenters: a refund is
 * "refunded" only once its refund movement succeeded. `pending`: a refund was asked for and its
 * answer is not recorded yet (the sweeper finishes it); `none`: no refund was asked for. The place's
 * money only (issue 36): a show-up deposit refunded at check-in is no refund of the place.
 */
export type RefundState = "none" | "pending" | "refunded";
export type PledgeMoney = {
  refund: RefundState;
  /** succeeded charges of the pledge's place (purpose ticket: a show-up deposit is its own figure, lib/ledger/deposits) */
  chargedCents: number;
  /** succeeded refunds of them */
  refundedCents: number;
};

const NO_MONEY: PledgeMoney = { refund: "none", chargedCents: 0, refundedCents: 0 };

/**
 * The money of each pledge, from its movement rows (a seat of a group's charge: its share,
 * lib/ledger/seat-money.ts); a pledge with none reads as no money.
 */
export async function refundState(
  pledgeIds: readonly string[],
  tx: Prisma.TransactionClient = db,
): Promise<Map<string, PledgeMoney>> {
  const out = new Map<string, PledgeMoney>(pledgeIds.map((id) => [id, NO_MONEY]));
  if (pledgeIds.length === 0) return out;
  const rows = await tx.$queryRaw<
    { pledgeId: string; chargedCents: number; refundedCents: number; refunds: number; refundsDone: number }[]
  >`
    SELECT "pledgeId",
      COALESCE(sum("amountCents") FILTER (WHERE "kind" = 'charge' AND "state" = 'succeeded'), 0)::float8 AS "chargedCents",
      COALESCE(sum("amountCents") FILTER (WHERE "kind" = 'refund' AND "state" = 'succeeded'), 0)::float8 AS "refundedCents",
      count(*) FILTER (WHERE "kind" = 'refund' AND "state" <> 'failed')::int AS "refunds",
      count(*) FILTER (WHERE "kind" = 'refund' AND "state" = 'succeeded')::int AS "refundsDone"
    FROM ${seatMoneySql({ pledgeIds })} AS s WHERE "pledgeId" = ANY(${[...pledgeIds]}::text[]) AND "purpose" = 'ticket'
    GROUP BY "pledgeId"`;
  for (const r of rows) {
    out.set(r.pledgeId, {
      refund: r.refunds === 0 ? "none" : r.refundsDone === r.refunds ? "refunded" : "pending",
      chargedCents: r.chargedCents,
      refundedCents: r.refundedCents,
    });
  }
  return out;
}

/**
 * What the provider holds for an event's backers by the money rows: succeeded charges less succeeded
 * refunds (the figure the provider's own records must equal; tests/ledger checks it against the
 * demo gateway).
 */
export async function heldCents(campaignId: string): Promise<number> {
  const [row] = await db.$queryRaw<{ held: number }[]>`
    SELECT COALESCE(sum(CASE WHEN "kind" = 'charge' THEN "amountCents" ELSE -"amountCents" END), 0)::float8 AS "held"
    FROM "MoneyMovement" WHERE "campaignId" = ${campaignId} AND "state" = 'succeeded' AND "kind" IN ('charge', 'refund')`;
  return row.held;
}

/** Crockford's base 32: no I, L, O or U, so a reference read aloud or typed is not mistaken. */
const REFERENCE_DIGITS = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";

/**
 * A payment's receipt reference as people read it (issue 34: "Receipt PN-7F3K-2QXM", not the
 * provider's `pi_…`): 40 bits of a hash of the pledge id, so it is the same on every surface and
 * every day, and says nothing about the pledge, its backer or the provider's ids.
 */
export function receiptReference(pledgeId: string): string {
  const digest = createHash("sha256").update(`receipt:${pledgeId}`).digest();
  // the first 40 bits, five at a time
  let bits = 0n;
  for (let i = 0; i < 5; i++) bits = (bits << 8n) | BigInt(digest[i]);
  let out = "";
  for (let shift = 35n; shift >= 0n; shift -= 5n) out += REFERENCE_DIGITS[Number((bits >> shift) & 31n)];
  return `PN-${out.slice(0, 4)}-${out.slice(4)}`;
}
