import "server-only";
import { Prisma } from "@/lib/db";

/**
 * An event's counters (issue 32): `committedCount`, `pledgeCount`, `currentAmount`, `raisedCents`,
 * `waitlistCount`, `totalCharged`, `totalChargedCents` are written here, in the commit transition
 * (lib/events/commit.ts) and in the status moves (lib/events/status.ts), and nowhere else
 * (npm run check:structure). Each write is one statement inside the caller's transaction with the
 * event's row locked (withEvent), named for the transition that moves them. Counts never go below 0.
 *
 * `people`: places; `amount`: currentAmount units (dollars, 1 per paction pledge); `cents`: what
 * raisedCents counts (a paid pledge's price, 0 for a free one).
 */

type Tx = Prisma.TransactionClient;
export type Moved = { people: number; amount: number; cents: number };
type After = { committedCount: number; raisedCents: number };

/** withdraw / drop: a commitment that held a place leaves (`counted`: whether it counted toward the goal). */
export async function uncountPlace(
  tx: Tx,
  campaignId: string,
  m: { counted: number; amount: number; cents: number },
): Promise<After> {
  const [after] = await tx.$queryRaw<After[]>`
    UPDATE "Campaign" SET "committedCount" = GREATEST(0, "committedCount" - ${m.counted}),
           "pledgeCount" = GREATEST(0, "pledgeCount" - 1),
           "raisedCents" = GREATEST(0, "raisedCents" - ${m.cents}),
           "currentAmount" = GREATEST(0, "currentAmount" - ${m.amount})
    WHERE id = ${campaignId}
    RETURNING "committedCount", "raisedCents"::float8 AS "raisedCents"`;
  return after;
}

/** withdraw (waiting): a commitment leaves the waitlist; it added nothing but its place in line. */
export async function leaveLine(tx: Tx, campaignId: string): Promise<After> {
  const [after] = await tx.$queryRaw<After[]>`
    UPDATE "Campaign" SET "waitlistCount" = GREATEST(0, "waitlistCount" - 1) WHERE id = ${campaignId}
    RETURNING "committedCount", "raisedCents"::float8 AS "raisedCents"`;
  return after;
}

/** promote: the first in line take the places that opened (issue 20). */
export async function promote(tx: Tx, campaignId: string, m: Moved): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Campaign" SET "committedCount" = "committedCount" + ${m.people}, "pledgeCount" = "pledgeCount" + ${m.people},
      "raisedCents" = "raisedCents" + ${m.cents}, "currentAmount" = "currentAmount" + ${m.amount},
      "waitlistCount" = GREATEST(0, "waitlistCount" - ${m.people})
    WHERE id = ${campaignId}`;
}

/** demote: a promoted commitment whose charge failed goes back to its place in line. */
export async function demote(
  tx: Tx,
  campaignId: string,
  m: { amount: number; cents: number },
): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Campaign" SET "committedCount" = GREATEST(0, "committedCount" - 1), "pledgeCount" = GREATEST(0, "pledgeCount" - 1),
      "raisedCents" = GREATEST(0, "raisedCents" - ${m.cents}),
      "currentAmount" = GREATEST(0, "currentAmount" - ${m.amount}), "waitlistCount" = "waitlistCount" + 1
    WHERE id = ${campaignId}`;
}

/** give up, undone: givers whose place found no payer take it back (in again, still paid). */
export async function reinstate(tx: Tx, campaignId: string, m: Moved): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Campaign" SET "committedCount" = "committedCount" + ${m.people}, "pledgeCount" = "pledgeCount" + ${m.people},
      "currentAmount" = "currentAmount" + ${m.amount},
      "raisedCents" = "raisedCents" + ${m.cents}
    WHERE id = ${campaignId}`;
}

/** release: commitments whose condition never held leave at the deadline (they were never members). */
export async function release(tx: Tx, campaignId: string, m: Moved): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Campaign" SET "pledgeCount" = GREATEST(0, "pledgeCount" - ${m.people}),
      "currentAmount" = GREATEST(0, "currentAmount" - ${m.amount}),
      "raisedCents" = GREATEST(0, "raisedCents" - ${m.cents})
    WHERE id = ${campaignId}`;
}

/** The waitlist closed (the event started or was called off): `left` still wait (those in flight). */
export async function closeLine(tx: Tx, campaignId: string, left: number): Promise<void> {
  await tx.campaign.update({
    where: { id: campaignId },
    data: { waitlistCount: left },
    select: { id: true },
  });
}

/** The members were recounted (issue 21): `committedCount` is the members now. */
export async function setMembers(tx: Tx, campaignId: string, members: number): Promise<void> {
  await tx.$executeRaw`UPDATE "Campaign" SET "committedCount" = ${members} WHERE id = ${campaignId}`;
}

/** A confirmed free event's confirmations: `totalCharged` is the pledges confirmed. */
export async function setConfirmed(tx: Tx, campaignId: string, total: number): Promise<void> {
  await tx.campaign.update({
    where: { id: campaignId },
    data: { totalCharged: total },
    select: { id: true },
  });
}
