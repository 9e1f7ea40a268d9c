import "server-only";
import { closeLine, demote, promote } from "@/lib/events/counters";
import { withEvent } from "@/lib/events/lock";
import { db, Prisma } from "@/lib/db";
import { standingPledgeSql, statusIn } from "@/lib/events/sql";
import {
  CALLED_OFF_STATUSES,
  inStatuses,
  isConfirmed,
  isFreeEvent,
  isPaidEvent,
  placesLeft,
  waitlistClosesAt,
  waitlistOpen,
} from "@/lib/events/lifecycle";
import {
  isRecoverable,
  pledgeStatesIn,
  RECOVERABLE_STATES,
  recordChargeResult,
} from "@/lib/ledger/pledge-state";
import { requestCharging } from "@/lib/ledger/queue";
import { emailCampaignSelect, queueToEach } from "@/lib/campaigns/notifications";
import { kickEmailSender, queueEmails } from "@/lib/email/service";
import { promotedEmail, promotionFailedEmail, waitlistClosedEmail } from "@/lib/campaigns/waitlist-emails";
import { releaseSavedCards } from "@/lib/ledger/cards";
import { getGateway } from "@/lib/payments/gateway";
import type { PaymentGateway } from "@/lib/payments/types";
import { oneAtATime } from "@/lib/campaigns/commit-slots";
import { confirmJoinedIfFree, recountMembers, tipIfReached } from "@/lib/campaigns/membership";
import {
  moveHandovers,
  recordDemotion,
  recordPromotions,
  recordWaitlistClosed,
  reinstateGivers,
} from "@/lib/campaigns/places";

/**
 * The waitlist (issue 20, DESIGN §1 "capacity and waitlist"). A place opens when a commitment that
 * is in leaves — a withdrawal, a dropped payment, a place given up — or the capacity is raised; in
 * the same transaction, under the campaign row lock every commit and withdrawal takes, the first in
 * line are promoted (fillOpenPlaces). A promoted commitment of a tipped paid event is an uncharged
 * live pledge, so the charging pipeline charges it exactly once, off-session, like any other (its
 * claim and idempotency key); this file only queues that run. A promotion whose charge fails goes
 * back to its place in line, waiting for a new card, and the place moves on (returnFailedPromotion).
 * Promotions stop at the event start, when the waitlist closes (runWaitlistPass).
 */

type Tx = Prisma.TransactionClient;
export type Filled = { promoted: string[]; charge: boolean };
const NOTHING: Filled = { promoted: [], charge: false };

/**
 * Promotes the first in line into the places now open. Inside the caller's transaction, the
 * campaign row locked. The counters move by exactly what the promoted commits would have added;
 * a confirmed free event confirms them at once. Each promoted backer is emailed in this transaction.
 */
export async function fillOpenPlaces(tx: Tx, campaignId: string, now: Date): Promise<Filled> {
  // whoever left, the members are recounted first (issue 21: a condition may no longer hold)
  await recountMembers(tx, campaignId, now);
  const c = await tx.campaign.findUnique({
    where: { id: campaignId },
    select: { ...emailCampaignSelect, status: true, capacity: true, waitlistCount: true, pledgeCount: true },
  });
  if (!c || c.capacity === null || c.waitlistCount === 0 || !waitlistOpen(c, now)) return NOTHING;
  const rows = await recordPromotions(tx, campaignId, placesLeft(c), now);
  if (rows.length === 0) return NOTHING;
  const paid = isPaidEvent(c);
  const people = rows.length;
  const amount = rows.reduce((s, r) => s + r.amount, 0);
  const cents = paid ? rows.reduce((s, r) => s + r.amountCents, 0) : 0;
  await promote(tx, campaignId, { people, amount, cents });
  // the promoted may be conditional, or make others' conditions hold — and before the tip, tip it
  const { joined } = await recountMembers(tx, campaignId, now);
  const tipped = isConfirmed(c.status) ? null : await tipIfReached(tx, campaignId, now);
  const confirmed = isConfirmed(c.status) || tipped !== null;
  // a confirmed free event confirms the promoted members, and those whose condition now holds
  // the promoted who count now (a condition may not hold yet)
  const counted = new Set(
    (
      await tx.pledge.findMany({
        where: { id: { in: rows.map((r) => r.id) }, NOT: { memberSince: null } },
        select: { id: true },
      })
    ).map((m) => m.id),
  );
  if (isConfirmed(c.status) && isFreeEvent(c))
    await confirmJoinedIfFree(tx, campaignId, [...new Set([...counted, ...joined])], now);
  const after = { ...c, status: tipped ?? c.status, committedCount: c.committedCount + people };
  // the one email of a promotion (issue 34): queueConfirmedEmails leaves those it tells alone (toldAtPromotion)
  await queueToEach(tx, rows, (r, to) => promotedEmail(after, to, r.id, counted.has(r.id), now));
  return { promoted: rows.map((r) => r.id), charge: confirmed && paid };
}

/** After the transaction that filled places: the promoted are charged by the charging job. */
export async function afterPlacesFilled(campaignId: string, filled: Filled): Promise<void> {
  if (filled.promoted.length === 0) return;
  if (filled.charge) {
    try {
      await requestCharging(campaignId);
    } catch (err) {
      // the charge sweeper finds the uncharged promoted pledge within a minute
      console.warn(`[waitlist] could not queue charging for ${campaignId}: ${(err as Error).message}`);
    }
  }
  void kickEmailSender();
}

/** Opens the places a transaction made: locks the campaign row, runs `fn`, then fills the places. */
export async function withPlaces<T>(
  campaignId: string,
  fn: (tx: Tx, now: Date) => Promise<T | null>,
  then?: (tx: Tx, result: T, filled: Filled) => Promise<void>,
): Promise<{ result: T | null; filled: Filled }> {
  const out = await oneAtATime(campaignId, () =>
    db.$transaction(
      async (tx) => {
        const now = new Date();
        return withEvent(tx, campaignId, async () => {
          const result = await fn(tx, now);
          if (result === null) return { result, filled: NOTHING };
          const filled = await fillOpenPlaces(tx, campaignId, now);
          if (then) await then(tx, result, filled);
          return { result, filled };
        });
      },
      { maxWait: 60_000, timeout: 60_000 },
    ),
  );
  await afterPlacesFilled(campaignId, out.filled);
  return out;
}

/**
 * A promoted commitment's charge failed (the charging run reports it; the waitlist pass catches
 * one reported by a webhook): the commitment goes back to its place in line, its backer is asked
 * for a new card, and the place goes to the next in line. A payment still waiting for the bank's
 * authentication is cancelled first; should it have gone through meanwhile, it stays in. A backer
 * who gave their place up and was waiting on this one for a refund waits on the next in line; with
 * nobody next, they get their (paid) place back instead. Returns whether the failure was handled
 * here (a pledge that was not a promotion, or is no longer on the attempt that failed, is not).
 */
export async function returnFailedPromotion(
  pledgeId: string,
  gateway: PaymentGateway = getGateway(),
): Promise<boolean> {
  const p = await db.pledge.findUnique({
    where: { id: pledgeId },
    select: {
      promotedAt: true,
      charged: true,
      chargeStatus: true,
      chargeAttempts: true,
      chargeFailureMessage: true,
      paymentIntentId: true,
      amountCents: true,
      campaignId: true,
      userId: true,
      user: { select: { email: true, name: true } },
      campaign: { select: { ...emailCampaignSelect, status: true } },
    },
  });
  if (!p?.promotedAt || p.charged || !isRecoverable(p.chargeStatus)) return false;
  if (p.chargeStatus === "requires_action" && p.paymentIntentId) {
    const final = await gateway.cancelIntent(p.paymentIntentId);
    if (final.status === "succeeded") {
      await recordChargeResult(pledgeId, p.amountCents, final);
      return true;
    }
  }
  const { result } = await withPlaces(
    p.campaignId,
    async (tx, now) => {
      const back = await recordDemotion(tx, pledgeId, p.chargeAttempts, now);
      if (!back) return null;
      await demote(tx, p.campaignId, {
        amount: back.amount,
        cents: isPaidEvent(p.campaign) ? p.amountCents : 0,
      });
      const reason =
        p.chargeStatus === "requires_action"
          ? "your bank asked for a confirmation we could not get while you were away."
          : (p.chargeFailureMessage ?? "your card was declined.");
      // after the start the waitlist is closing: its own email says so
      if (waitlistOpen(p.campaign, now))
        await queueEmails(tx, [
          promotionFailedEmail(
            p.campaign,
            { userId: p.userId, email: p.user.email, name: p.user.name },
            pledgeId,
            p.chargeAttempts,
            reason,
          ),
        ]);
      return back;
    },
    async (tx, _back, filled) => {
      // givers waiting on this one now wait on whoever took the place next, or take it back
      if (filled.promoted[0]) await moveHandovers(tx, pledgeId, filled.promoted[0]);
      else if ((await reinstateGivers(tx, p.campaignId, pledgeId)) > 0)
        await recountMembers(tx, p.campaignId, new Date()); // a giver back in may make a condition hold
    },
  );
  return result !== null;
}

/** How many rows each step of the pass takes at most per run. */
const PASS_BATCH = 100;

/**
 * Every minute (the waitlist job): hands failed promotions reported by a webhook back to the line,
 * fills places still open on an event with a waitlist (a safety net: every opening fills its place
 * in its own transaction), and closes the waitlist of events that started or were called off —
 * whoever still waits is let go, told, and their card released. With nothing to do it is three
 * indexed reads.
 */
export async function runWaitlistPass(
  now = new Date(),
): Promise<{ demoted: number; filled: number; closed: number }> {
  let demoted = 0;
  const failed = await db.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM "Pledge" p
    WHERE p."withdrawnAt" IS NULL AND p."waitlistedAt" IS NULL AND p."promotedAt" IS NOT NULL AND p.charged = false
      AND p."chargeStatus" IN (${pledgeStatesIn(RECOVERABLE_STATES)})
    ORDER BY p."paymentFailedAt" ASC NULLS LAST LIMIT ${PASS_BATCH}`;
  for (const { id } of failed) if (await returnFailedPromotion(id).catch(() => false)) demoted++;

  const lines = await db.$queryRaw<
    { id: string; open: boolean; status: string; startsAt: Date | null; deadline: Date }[]
  >`
    SELECT c.id, c.status::text AS status, c."startsAt", c.deadline,
           (c.capacity IS NOT NULL AND c.capacity > c."pledgeCount") AS open
    FROM "Campaign" c
    WHERE c."waitlistCount" > 0
      AND ((c.capacity IS NOT NULL AND c.capacity > c."pledgeCount") OR COALESCE(c."startsAt", c.deadline) <= ${now}
        OR c.status IN (${statusIn(CALLED_OFF_STATUSES)}))
    ORDER BY COALESCE(c."startsAt", c.deadline) ASC LIMIT ${PASS_BATCH}`;
  let filled = 0;
  let closed = 0;
  for (const line of lines) {
    try {
      if (!waitlistOpen(line, now)) {
        closed += await closeWaitlist(line.id, now);
      } else if (line.open) {
        const out = await withPlaces(line.id, async () => true);
        filled += out.filled.promoted.length;
      }
    } catch (err) {
      // one event's trouble does not hold up the others; the next pass tries it again
      console.warn(`[waitlist] pass over ${line.id} failed: ${(err as Error).message}`);
    }
  }
  return { demoted, filled, closed };
}

/**
 * The waitlist of an event that started (or was called off) closes: every commitment still waiting
 * is withdrawn, never charged; its backer is told (a cancelled event's email already said so) and
 * the card is released after. Returns how many it let go.
 */
async function closeWaitlist(campaignId: string, now: Date): Promise<number> {
  const gone = await db.$transaction((tx) =>
    withEvent(tx, campaignId, async () => {
      const c = await tx.campaign.findUniqueOrThrow({
        where: { id: campaignId },
        select: { ...emailCampaignSelect, status: true },
      });
      if (waitlistOpen(c, now)) return [];
      const rows = await recordWaitlistClosed(tx, campaignId, now);
      const left = await tx.pledge.count({
        where: { campaignId, withdrawnAt: null, NOT: { waitlistedAt: null } },
      });
      await closeLine(tx, campaignId, left);
      if (!inStatuses(CALLED_OFF_STATUSES, c.status) && waitlistClosesAt(c) <= now) {
        await queueToEach(tx, rows, (r, to) => waitlistClosedEmail(c, to, r.id));
      }
      return rows;
    }),
  );
  for (const r of gone) await releaseSavedCards(1, r.id).catch(() => 0); // its sweeper finishes otherwise
  if (gone.length > 0) void kickEmailSender();
  return gone.length;
}

/**
 * A waiting commitment's place in line (1 = next), counted in commit order; null when it is not waiting.
 * Issue 37: a group is one entry in the line (its seats share their commit time and its group id), so
 * its seats share one place and those behind it are one further back, not one per seat.
 */
export async function waitlistPositions(
  campaignId: string,
  pledgeIds: string[],
): Promise<Map<string, number>> {
  if (pledgeIds.length === 0) return new Map();
  const rows = await db.$queryRaw<{ id: string; position: number }[]>`
    SELECT id, position FROM (
      SELECT id, dense_rank() OVER (ORDER BY "createdAt" ASC, COALESCE("groupId", id) ASC)::int AS position
      FROM "Pledge"
      WHERE "campaignId" = ${campaignId} AND "waitlistedAt" IS NOT NULL AND ${standingPledgeSql()}
    ) w WHERE id IN (${Prisma.join(pledgeIds)})`;
  return new Map(rows.map((r) => [r.id, r.position]));
}

/** The places in line of the waiting ones among `rows`, of any events (one query per event they wait for). */
export async function waitingPositionsOf(
  rows: { id: string; campaignId: string; standing: string }[],
): Promise<Map<string, number>> {
  const waiting = rows.filter((r) => r.standing === "waiting");
  const out = new Map<string, number>();
  for (const campaignId of new Set(waiting.map((r) => r.campaignId))) {
    const ids = waiting.filter((r) => r.campaignId === campaignId).map((r) => r.id);
    for (const [id, n] of await waitlistPositions(campaignId, ids)) out.set(id, n);
  }
  return out;
}

/** The entries waiting in line (a group counts once): a commitment that just joined it is this far back. */
export async function waitingEntries(tx: Prisma.TransactionClient, campaignId: string): Promise<number> {
  const [row] = await tx.$queryRaw<{ n: number }[]>`
    SELECT count(DISTINCT COALESCE("groupId", id))::int AS n FROM "Pledge"
    WHERE "campaignId" = ${campaignId} AND "waitlistedAt" IS NOT NULL AND ${standingPledgeSql()}`;
  return row?.n ?? 0;
}
