import "server-only";
import { db, type Prisma } from "@/lib/db";
import { withEvent } from "@/lib/events/lock";
import { commit, type CommitWrite } from "@/lib/events/commit";
import { isAppError } from "@/lib/errors";
import type { Viewer } from "@/lib/access/viewer";
import { getGateway } from "@/lib/payments/gateway";
import { requestCharging } from "@/lib/charging/service";
import { chargeOwnPledgeNow } from "@/lib/charging/recovery";
import { kickEmailSender, outboxColumns, queueEmail } from "@/lib/email/service";
import { consume, secondsText } from "@/lib/rate-limit/service";
import { isCrowdfund, isPaidEvent } from "@/lib/events/lifecycle";
import { canSeeEvent } from "@/lib/access/rules";
import {
  commitColumns,
  decide,
  fail,
  parseCommitInput,
  readForCommit,
  resultOf,
  type Card,
  type CommitResult,
  type Decision,
  type LockedCampaign,
  type Pre,
} from "@/lib/pledges/decide";
import { inGroups, isUniqueViolation, newId, withCommitSlot } from "@/lib/campaigns/commit-slots";
import { commitEmail, commitWrite } from "@/lib/pledges/commit-rows";
import { commitGroup, type Entry } from "@/lib/pledges/commit-group";
import { confirmJoinedIfFree, isMember, recountMembers, tipIfReached } from "@/lib/campaigns/membership";
import { fillOpenPlaces, waitingEntries } from "@/lib/campaigns/waitlist";
import { rememberCard } from "@/lib/pledges/saved-cards";

/** At most 20 commit attempts per user per minute (a person commits once per event). */
export const COMMIT_RATE_LIMIT = { limit: 20, windowMs: 60_000 } as const;
const commitTooFastText = (wait: string) =>
  `You're committing too quickly. Please wait ${wait} and try again.`;

/**
 * The common commit — one that neither crosses the threshold nor arrives late — in ONE statement,
 * so one round trip and one transaction: the commit transition (lib/events/commit) locks the
 * campaign row only if it is still the version the decision was made on (compare-and-set on xmin; a
 * concurrent commit, edit or comment moves it), inserts the pledge, updates the counters and writes
 * the confirmation email to the outbox. Returns null when the row changed meanwhile (the caller
 * decides again on the new row).
 */
async function commitInOneStatement(
  viewer: Viewer,
  d: Decision,
  version: string,
  now: Date,
): Promise<CommitResult | null> {
  const pledgeId = newId();
  const e = outboxColumns(commitEmail(viewer, d, pledgeId, { members: d.committedCount, member: d.member }));
  const row = await commit(db, commitWrite(viewer, d, pledgeId, now, d.member), {
    version,
    // issue 21: the conditions this commitment makes hold join (the members were counted with it)
    joinUpTo: d.counted ? d.committedCount : null,
    email: { id: newId(), ...e },
  });
  if (!row.locked) return null;
  // The row was current and locked: the only way not to insert is the unique live (campaignId, userId) index.
  if (!row.pledgeId) throw fail("alreadyCommitted", "CONFLICT");
  return resultOf(d, pledgeId, "pending");
}

/** Attempts of the one-statement commit before the locking transaction takes over (it always progresses). */
const ONE_STATEMENT_ATTEMPTS = 3;

/**
 * Records `viewer`'s commitment (SPEC §4 commit flow, DESIGN §1 threshold). Every write happens with
 * the campaign row locked and checked against the row as it is then, so commits to one campaign are
 * serialised: the counters are exact, and among any number of concurrent commits exactly one sees
 * the count reach the goal and moves the campaign on (paid: `funded`, then charging is queued after
 * commit; free: `charged` at once with every pledge marked charged).
 *
 * Round trips (issue 8, commits/s): a commit that does not reach the goal is one read and one
 * statement (commitInOneStatement). The commit that crosses the threshold, a late one, or one whose
 * row keeps changing under it runs in a transaction holding the row lock from the first read. Only a
 * request with a card (the paid flow) reads the event before, to ask the payment provider about the
 * card outside the lock.
 */
export async function commitToCampaign(viewer: Viewer | null, rawInput: unknown): Promise<CommitResult> {
  if (!viewer) throw fail("signedOut", "UNAUTHENTICATED");
  const input = parseCommitInput(rawInput);
  // Every read before the transaction takes one of a few per-instance slots (see withCommitSlot).
  const pre: Pre = await withCommitSlot(async () => {
    // Abuse limit per user, in Postgres so it holds across instances (off with RATE_LIMIT_DISABLED).
    await consume({ key: `commit:user:${viewer.id}`, ...COMMIT_RATE_LIMIT }, (ms) =>
      commitTooFastText(secondsText(ms)),
    );
    // Without a card there is nothing to check with the payment provider: the decision is made on the row.
    if (!input.paymentMethodId) return null;

    // The commit's own read first (issue 37's one-tap commits: one round trip fewer): decides whether
    // the card is needed and refuses obvious cases before asking the payment provider anything; the
    // first one-statement attempt writes against this row, checked by its version when it writes.
    const row = await readForCommit(db, input.campaignId, viewer.id);
    if (!row || !canSeeEvent(viewer, row)) throw fail("notFound", "NOT_FOUND");
    if (row.alreadyCommitted) throw fail("alreadyCommitted", "CONFLICT");

    const paid = isPaidEvent(row);
    const crowdfund = isCrowdfund(row);
    const card: Card = paid ? await getGateway().getCard(viewer, input.paymentMethodId) : null;
    return { paid, crowdfund, card, row };
  });

  let result: CommitResult;
  try {
    result = await inGroups<Entry, CommitResult>(input.campaignId, { viewer, input, pre }, (group) =>
      commitGroup(group, commitAlone),
    );
  } catch (err) {
    // Two submits of one user racing past the checks: the unique (campaignId, userId) index wins.
    if (!isAppError(err) && isUniqueViolation(err)) throw fail("alreadyCommitted", "CONFLICT");
    throw err;
  }

  void kickEmailSender();
  // issue 37: "Save this card for next time" — the card the provider confirmed is the viewer's, kept on file
  if (input.saveCard && pre?.card) await keepCard(viewer.id, pre.card);
  if ((result.crossed || result.late) && !result.free) {
    // After commit (SPEC §8): the committer's own pledge is charged now, on-session, within a time
    // budget (a member's: a condition that does not hold yet is not charged); everyone else's by
    // the charging job, which reads the funded campaign from the database. If queuing fails, the
    // charging sweeper picks up funded campaigns.
    try {
      if (result.member)
        result.ownPayment = await chargeOwnPledgeNow(viewer, result.pledgeId, result.campaignId);
    } catch (err) {
      console.warn(`[pledges] own charge of ${result.pledgeId} deferred: ${(err as Error).message}`);
      result.ownPayment = { status: "pending" };
    }
    try {
      await requestCharging(result.campaignId);
      result.chargingQueued = true;
    } catch (err) {
      console.warn(`[pledges] could not queue charging for ${result.campaignId}: ${(err as Error).message}`);
    }
  }
  return result;
}

/** The commitment is recorded: failing to keep the card on file only means it is offered again next time. */
async function keepCard(userId: string, card: NonNullable<Card>) {
  await rememberCard(userId, card).catch((err) =>
    console.warn(`[pledges] could not keep the card on file: ${(err as Error).message}`),
  );
}

/** One commit on its own, as before group commit: the one statement, else the locked transaction. */
async function commitAlone({ viewer, input, pre }: Entry): Promise<CommitResult> {
  for (let attempt = 0; attempt < ONE_STATEMENT_ATTEMPTS; attempt++) {
    const now = new Date();
    const row = attempt === 0 && pre?.row ? pre.row : await readForCommit(db, input.campaignId, viewer.id);
    const d = decide(viewer, row, input, pre, now);
    // a recount the decision could not make (after the tip) needs the lock; a crossing too
    // issue 37: a group that fits is the common commit too: its seats in the same one statement
    if (d.crossed || d.late || d.waitlisted || (d.recount && !d.counted)) break;
    const done = await commitInOneStatement(viewer, d, row!.version, now);
    if (done) return done;
  }
  return commitLocked(viewer, input, pre);
}

/** The status a commit reports for the event's status `s` (late: after the tip). */
const reported = (s: string, late: boolean): CommitResult["status"] =>
  s === "charged" ? "charged" : late || s !== "pending" ? "funded" : "pending";

/**
 * A full event (issue 20), or a group that does not fit (issue 37): the commitment waits in line at
 * the last entry. A group whose holder agreed to it takes the places left at once, part of it; when
 * that put the holder in, the commit answers so (the promotion's email tells them, not "you're in line").
 */
async function joinLine(
  tx: Prisma.TransactionClient,
  viewer: Viewer,
  d: Decision,
  seatIds: string[],
  now: Date,
): Promise<CommitResult> {
  const { c } = d;
  const pledgeId = seatIds[0]!;
  // its place in line: the last entry (issue 37: a group waiting ahead is one entry, not its seats)
  const w = { ...d, position: await waitingEntries(tx, c.id) };
  const filled = d.partialOk ? await fillOpenPlaces(tx, c.id, now) : null;
  if (!filled?.promoted.includes(pledgeId)) {
    await queueEmail(tx, commitEmail(viewer, w, pledgeId));
    return resultOf(w, pledgeId, reported(c.status, d.late));
  }
  const after = await tx.campaign.findUniqueOrThrow({
    where: { id: c.id },
    select: { status: true, committedCount: true },
  });
  const crossed = c.status === "pending" && after.status !== "pending";
  return {
    ...resultOf(d, pledgeId, reported(after.status, d.late)),
    waitlisted: false,
    position: null,
    committedCount: after.committedCount,
    remaining: Math.max(0, c.goal - after.committedCount),
    crossed,
    thresholdMet: crossed || d.late,
    chargingQueued: (crossed || d.late) && !d.paid,
    member: await isMember(tx, pledgeId),
    seatsWaiting: d.seats - filled.promoted.filter((id) => seatIds.includes(id)).length,
  };
}

/** The commit transition under the caller's lock; the seats written (issue 37: the holder's first). */
async function commitUnderLock(tx: Prisma.TransactionClient, write: CommitWrite): Promise<string[]> {
  const written = await commit(tx, write, { version: null, joinUpTo: null, email: null });
  if (!written.pledgeId) throw fail("alreadyCommitted", "CONFLICT");
  return [write.pledgeId, ...(write.extraSeats ?? [])];
}

/**
 * A commit inside a transaction that locks the campaign row first (the threshold crossing, a late
 * commit, or a row that kept changing): the decision and every write see the row as locked.
 */
function commitLocked(
  viewer: Viewer,
  input: ReturnType<typeof parseCommitInput>,
  pre: Pre,
): Promise<CommitResult> {
  return db.$transaction(
    (tx) =>
      withEvent<CommitResult, LockedCampaign>(
        tx,
        input.campaignId,
        async (row) => {
          const now = new Date();
          const d = decide(viewer, row, input, pre, now);
          const { c } = d;
          // The pledge and the counters in one statement (the commit transition, under the lock held
          // here). A full event (issue 20): the commitment joins the waitlist — its place in line is its
          // commit order — and moves only the waitlist's count.
          const pledgeId = newId();
          const seatIds = await commitUnderLock(tx, commitWrite(viewer, d, pledgeId, now, false));
          if (d.waitlisted) return joinLine(tx, viewer, d, seatIds, now);

          // Personal thresholds (issue 21): who counts is recounted under this lock — the new
          // commitment may make others' conditions hold (the cascade), or wait for its own.
          let joined: string[] = [];
          let members = d.committedCount;
          let member = d.minPeople === null;
          if (d.recount) {
            ({ joined, members } = await recountMembers(tx, c.id, now));
            member = await isMember(tx, pledgeId);
          }
          // Under the lock with status `pending` (decide() checked it), the first commit to reach the
          // goal is the only one that can see it: later ones find the campaign closed.
          let status: CommitResult["status"] = "pending";
          let crossed = false;
          if (d.late) {
            status = c.status === "charged" ? "charged" : "funded";
            // A late member of a confirmed free event is confirmed on arrival (DESIGN §1 "free events"),
            // and so is anyone whose condition this commit made hold.
            await confirmJoinedIfFree(tx, c.id, member ? [...seatIds, ...joined] : joined, now);
          } else {
            const tipped = await tipIfReached(tx, c.id, now);
            if (tipped) [status, crossed] = [tipped, true];
          }
          // Emails go to the outbox in this same transaction (DESIGN §1): the backer's confirmation
          // (a free event that tipped has queued every member's "Event Confirmed!").
          await queueEmail(tx, commitEmail(viewer, d, pledgeId, { members, member }));
          const result = resultOf(d, pledgeId, status);
          const progressNow = d.crowdfund ? d.progress : members;
          return {
            ...result,
            committedCount: progressNow,
            remaining: Math.max(0, d.c.goal - progressNow),
            crossed,
            thresholdMet: crossed || d.late,
            chargingQueued: (crossed || d.late) && !d.paid,
            member,
          };
        },
        { read: commitColumns(viewer.id) },
      ),
    // Commits to one popular event queue on its row lock; give them room to wait for a pooled
    // connection and for the lock instead of failing under a burst.
    { maxWait: 60_000, timeout: 60_000 },
  );
}
