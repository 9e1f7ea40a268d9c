import "server-only";
import { Prisma } from "@/lib/db";

/**
 * Which seat a money row is for, and how much of it (issue 37, paid groups): the ONE rule every reader
 * of "is this seat paid, how much was paid for it" goes through (refundState, the payout ledger, the
 * CSV and the manage page through them).
 *
 * A group's seats are paid by one charge of seats × price (lib/ledger/pledge-state.ts `recordUnitResult`):
 * one MoneyMovement whose own pledge is the unit's first seat, and one `MoneyMovementPledge` row per
 * seat it covers with that seat's share. A movement with such rows stands for them; one without stands
 * for its own pledge, with its own amount (every single commitment, every refund — a seat's refund is
 * its own row on the seat, a part of the group's payment). At an event with a show-up deposit the
 * payment's deposit row (seats × the deposit) has such rows too, each seat's share its deposit, so
 * each seat's deposit is charged, refunded (`deposit-refund-<seat>`) or kept on its own.
 *
 * `seatMoneySql(filter)` is a relation with the movement's columns, where "pledgeId" is the seat and
 * "amountCents" the seat's share; `filter` narrows it by event or by seats (both use an index).
 */
export function seatMoneySql(filter: { campaignId?: string; pledgeIds?: readonly string[] }): Prisma.Sql {
  const where: Prisma.Sql[] = [];
  if (filter.campaignId !== undefined) where.push(Prisma.sql`m."campaignId" = ${filter.campaignId}`);
  if (filter.pledgeIds !== undefined) {
    const ids = [...filter.pledgeIds];
    where.push(Prisma.sql`(m."pledgeId" = ANY(${ids}::text[])
      OR m."id" IN (SELECT x."movementId" FROM "MoneyMovementPledge" x WHERE x."pledgeId" = ANY(${ids}::text[])))`);
  }
  return Prisma.sql`(
    SELECT m."id", m."kind", m."purpose", m."state", m."campaignId", m."providerId", m."sourceId",
      COALESCE(mp."pledgeId", m."pledgeId") AS "pledgeId", COALESCE(mp."amountCents", m."amountCents") AS "amountCents"
    FROM "MoneyMovement" m LEFT JOIN "MoneyMovementPledge" mp ON mp."movementId" = m."id"
    WHERE ${where.length > 0 ? Prisma.join(where, " AND ") : Prisma.sql`true`})`;
}
