import "server-only";
import { leaveLine, reinstate, uncountPlace } from "@/lib/events/counters";
import { Prisma } from "@/lib/db";
import { livePledgeSql } from "@/lib/events/sql";
import { countsTowardGoal, isPaidEvent } from "@/lib/events/lifecycle";
import { stillPayableSql } from "@/lib/ledger/payment-window";
import { pledgeStatesIn, RECOVERABLE_STATES } from "@/lib/ledger/pledge-state";

/**
 * The only writer of who holds a place (issue 20, beside the charge state that
 * lib/ledger/pledge-state.ts writes). A commitment is in (LIVE_PLEDGE), waiting on the waitlist
 * (`waitlistedAt`), or withdrawn (`withdrawnAt`: withdrawn, dropped, given up, or left waiting when
 * the event started). Every write runs inside the caller's transaction with the campaign row locked
 * — the lock every commit takes — and checks the row's state in its WHERE, so a place is taken or
 * given back exactly once. The rows stay: an attendee number is never reused.
 */

type Tx = Prisma.TransactionClient;

/**
 * The counters drop by what a pledge's commit added (lib/pledges/decide: a paid pledge counts with
 * its card, a free one always; a crowdfund counts its dollars). Inside the caller's transaction,
 * the campaign row locked. A waiting commitment added nothing but its place in line.
 */
export async function uncount(
  tx: Tx,
  campaignId: string,
  c: { ticketPriceCents: number; pactType: string | null; depositCents: number },
  pledge: { amount: number; amountCents: number; paymentMethodId: string | null; waitlistedAt?: Date | null },
) {
  if (pledge.waitlistedAt) {
    return leaveLine(tx, campaignId);
  }
  const counted = countsTowardGoal(c, pledge.paymentMethodId !== null) ? 1 : 0;
  const pledgeCents = isPaidEvent(c) ? pledge.amountCents : 0;
  return uncountPlace(tx, campaignId, { counted, amount: pledge.amount, cents: pledgeCents });
}

/**
 * The backer withdraws — or leaves the waitlist. Never while a charge of it is in flight (the claim
 * holds `processing`; the charge's outcome must be known first). Returns whether this call withdrew it.
 */
export async function recordWithdrawal(
  tx: Tx,
  pledgeId: string,
  now: Date,
  opts: { gaveUp?: boolean } = {},
): Promise<boolean> {
  const { count } = await tx.pledge.updateMany({
    where: { id: pledgeId, withdrawnAt: null, chargeStatus: { not: "processing" } },
    data: { withdrawnAt: now, ...(opts.gaveUp ? { gaveUpAt: now } : {}) },
  });
  return count > 0;
}

/**
 * The recovery window of a failed payment closed unpaid (lib/charging/recovery-pass.ts): the pledge
 * is dropped — withdrawn, so nothing charges it again — never while a payment of it is in flight.
 */
export async function recordDrop(tx: Tx, pledgeId: string, now: Date): Promise<boolean> {
  const n = await tx.$executeRaw`
    UPDATE "Pledge" AS p SET "withdrawnAt" = ${now}, "droppedAt" = ${now}
    WHERE p."id" = ${pledgeId} AND ${livePledgeSql("p")} AND p."chargeStatus" IN (${pledgeStatesIn(RECOVERABLE_STATES)})
      AND NOT ${stillPayableSql("p", now)}`;
  return n > 0;
}

/**
 * Places opened: the first `places` commitments in line that can be charged (a waiting card that
 * failed at its own promotion waits for a new one) are promoted, in commit order, a group as one
 * (promotable). Returns them.
 */
export async function recordPromotions(
  tx: Tx,
  campaignId: string,
  places: number,
  now: Date,
): Promise<{ id: string; userId: string; amount: number; amountCents: number }[]> {
  if (places <= 0) return [];
  // issue 37: the line's seats in order, each with its group's waiting seats (a group waits as one)
  const line = await tx.$queryRaw<LineSeat[]>`
    SELECT "id", COALESCE("groupId", "id") AS "entry", "partialOk"
    FROM "Pledge"
    WHERE "campaignId" = ${campaignId} AND "waitlistedAt" IS NOT NULL AND "withdrawnAt" IS NULL AND "chargeStatus" = 'none'
    ORDER BY "createdAt" ASC, COALESCE("groupId", "id") ASC, "guestSlot" ASC
    LIMIT ${LINE_READ}`;
  const chosen = promotable(line, places);
  if (chosen.length === 0) return [];
  return tx.$queryRaw`
    UPDATE "Pledge" AS p SET "waitlistedAt" = NULL, "promotedAt" = ${now}
    WHERE p."id" = ANY(${chosen}::text[])
    RETURNING p."id", p."userId", p."amount", p."amountCents"`;
}

type LineSeat = { id: string; entry: string; partialOk: boolean };

/** How far down the line a promotion looks for commitments that fit (groups are at most 10 seats). */
const LINE_READ = 2_000;

/**
 * Which waiting seats take `places` (issue 37, lib/events/seats): the line in commit order, a group
 * as one entry. An entry that fits is promoted whole; one that does not is promoted in part if its
 * holder agreed (it fills the places left), else it keeps its place and the opening goes to the next
 * entry that fits.
 */
export function promotable(line: LineSeat[], places: number): string[] {
  const entries = new Map<string, LineSeat[]>();
  for (const seat of line) entries.set(seat.entry, [...(entries.get(seat.entry) ?? []), seat]);
  const chosen: string[] = [];
  let left = places;
  for (const seats of entries.values()) {
    if (left === 0) break;
    if (seats.length <= left || seats[0]!.partialOk) {
      const take = seats.slice(0, left);
      chosen.push(...take.map((s) => s.id));
      left -= take.length;
    }
  }
  return chosen;
}

/**
 * A promotion's charge failed (off-session: declined, or the bank asks for authentication): the
 * commitment goes back to its place in line, waiting for a new card. Only a promoted pledge that is
 * in, never charged, whose charge is not in flight, still on the attempt that failed. Returns it, or null.
 */
export async function recordDemotion(
  tx: Tx,
  pledgeId: string,
  attempt: number,
  now: Date,
): Promise<{ id: string; amount: number } | null> {
  // only the attempt that failed: a payment the backer started since (on the pay page) is not undone
  const rows = await tx.$queryRaw<{ id: string; amount: number }[]>`
    UPDATE "Pledge" AS p SET "waitlistedAt" = ${now}, "promotedAt" = NULL
    WHERE p."id" = ${pledgeId} AND ${livePledgeSql("p")} AND p."promotedAt" IS NOT NULL AND p."charged" = false
      AND p."chargeStatus" IN (${pledgeStatesIn(RECOVERABLE_STATES)}) AND p."chargeAttempts" = ${attempt}
    RETURNING p."id", p."amount"`;
  return rows[0] ?? null;
}

/** A given-up place went to `toPledgeId` (the giver is refunded once that pledge has paid). */
export async function recordHandover(tx: Tx, fromPledgeId: string, toPledgeId: string): Promise<void> {
  await tx.pledge.updateMany({
    where: { id: fromPledgeId, gaveUpAt: { not: null } },
    data: { handedToId: toPledgeId },
  });
}

/** The promoted one could not pay: the givers who waited on them wait on the next one instead. */
export async function moveHandovers(tx: Tx, fromPledgeId: string, toPledgeId: string): Promise<void> {
  await tx.pledge.updateMany({ where: { handedToId: fromPledgeId }, data: { handedToId: toPledgeId } });
}

/**
 * The promoted one could not pay and nobody was next in line: whoever gave their (paid) place up
 * for them takes it back — in again, still paid, no refund owed. Not a giver who has committed to
 * the event again since (they are refunded as any withdrawal). Returns how many came back.
 */
export async function reinstateGivers(tx: Tx, campaignId: string, fromPledgeId: string): Promise<number> {
  const back = await tx.$queryRaw<{ amount: number; amountCents: number }[]>`
    UPDATE "Pledge" AS g SET "withdrawnAt" = NULL, "gaveUpAt" = NULL, "handedToId" = NULL
    WHERE g."handedToId" = ${fromPledgeId} AND g."campaignId" = ${campaignId} AND g."refundId" IS NULL
      AND g."chargeStatus" = 'succeeded'
      AND NOT EXISTS (SELECT 1 FROM "Pledge" o WHERE o."campaignId" = g."campaignId" AND o."userId" = g."userId" AND o."withdrawnAt" IS NULL)
    RETURNING g."amount", g."amountCents"`;
  if (back.length > 0)
    await reinstate(tx, campaignId, {
      people: back.length,
      amount: back.reduce((s, r) => s + r.amount, 0),
      cents: back.reduce((s, r) => s + r.amountCents, 0),
    });
  // one who re-committed meanwhile: an ordinary withdrawal now, refunded by the refund sweeper
  await tx.pledge.updateMany({
    where: { handedToId: fromPledgeId },
    data: { gaveUpAt: null, handedToId: null },
  });
  return back.length;
}

/**
 * The event started (issue 20: promotions stop): whoever still waits is let go — withdrawn, never
 * charged; their card is released after. Returns them (each is told once).
 */
export async function recordWaitlistClosed(
  tx: Tx,
  campaignId: string,
  now: Date,
): Promise<{ id: string; userId: string }[]> {
  return tx.$queryRaw`
    UPDATE "Pledge" SET "withdrawnAt" = ${now}, "waitlistClosedAt" = ${now}
    WHERE "campaignId" = ${campaignId} AND "waitlistedAt" IS NOT NULL AND "withdrawnAt" IS NULL
      AND "chargeStatus" <> 'processing'
    RETURNING "id", "userId"`;
}
