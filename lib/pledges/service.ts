import "server-only";
import { contributorText } from "@/lib/privacy/present";
import { db } from "@/lib/db";
import { withEvent } from "@/lib/events/lock";
import { commit, commitMany, type BatchedCommit, type CommitWrite } from "@/lib/events/commit";
import { isAppError } from "@/lib/errors";
import type { Viewer } from "@/lib/auth/viewer";
import { getGateway } from "@/lib/payments/gateway";
import { requestCharging } from "@/lib/charging/service";
import { chargeOwnPledgeNow } from "@/lib/charging/recovery";
import { commitReceivedEmail, eventConfirmedEmail } from "@/lib/campaigns/emails";
import { kickEmailSender, outboxColumns, queueEmail } from "@/lib/email/service";
import { consume, secondsText } from "@/lib/rate-limit/service";
import { isCrowdfund, isPaidEvent } from "@/lib/campaigns/lifecycle";
import { canSeeEvent } from "@/lib/access/rules";
import {
  commitColumns,
  decide,
  fail,
  parseCommitInput,
  readForBatch,
  readForCommit,
  resultOf,
  type Card,
  type CommitResult,
  type Decision,
  type LockedCampaign,
  type Pre,
} from "@/lib/pledges/decide";
import { inGroups, isUniqueViolation, newId, withCommitSlot, type Waiting } from "@/lib/pledges/commit-slots";
import { confirmJoinedIfFree, isMember, recountMembers, tipIfReached } from "@/lib/pledges/membership";
import { STANDING_PLEDGE } from "@/lib/campaigns/lifecycle";
import { waitlistJoinedEmail } from "@/lib/pledges/waitlist-emails";
import { conditionalCommitEmail } from "@/lib/pledges/condition-emails";

/** At most 20 commit attempts per user per minute (a person commits once per event). */
export const COMMIT_RATE_LIMIT = { limit: 20, windowMs: 60_000 } as const;
const commitTooFastText = (wait: string) =>
  `You're committing too quickly. Please wait ${wait} and try again.`;

/** The backer's confirmation (DESIGN §1: queued in the commit's own transaction), for the row after the commit. */
function commitEmail(
  viewer: Viewer,
  d: Decision,
  pledgeId: string,
  /** after a recount (issue 21): the members, and whether this commitment is one */
  counted: { members: number; member: boolean } = { members: d.committedCount, member: true },
) {
  const { c } = d;
  const to = { userId: viewer.id, email: c.userEmail ?? viewer.email, name: c.userName };
  if (d.waitlisted) return waitlistJoinedEmail(c, to, pledgeId, d.position ?? c.waitlistCount + 1);
  // the row as this commit leaves it: people and, for a crowdfund, dollars
  const campaign = { ...c, committedCount: counted.members, raisedCents: d.raisedCents };
  if (!counted.member && d.minPeople !== null)
    return conditionalCommitEmail(campaign, to, pledgeId, d.minPeople, d.pledgeCents);
  return commitReceivedEmail(
    campaign,
    { userId: viewer.id, email: c.userEmail ?? viewer.email, name: c.userName },
    pledgeId,
    d.pledgeCents,
  );
}

/** The commit transition's pledge row and counters (lib/events/commit), as `d` decided them. */
function commitWrite(viewer: Viewer, d: Decision, pledgeId: string, now: Date, member: boolean): CommitWrite {
  const { c, card } = d;
  return {
    campaignId: c.id,
    pledgeId,
    userId: viewer.id,
    amount: d.amount,
    amountCents: d.pledgeCents,
    contributor: contributorText(viewer.name),
    card,
    paymentMethod: c.paymentMethod?.trim() || "Not specified",
    minPeople: d.minPeople,
    waitlisted: d.waitlisted,
    member,
    committedCount: d.committedCount,
    raisedCents: d.raisedCents,
    now,
  };
}

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

    // A cheap read first: decides whether the card is needed and refuses obvious cases before asking
    // the payment provider anything. Everything is checked again on the row that is written.
    const snapshot = await db.campaign.findUnique({
      where: { id: input.campaignId },
      select: { creatorId: true, approvalStatus: true, ticketPriceCents: true, pactType: true },
    });
    if (!snapshot || !canSeeEvent(viewer, snapshot)) throw fail("notFound", "NOT_FOUND");
    const existing = await db.pledge.findFirst({
      where: { campaignId: input.campaignId, userId: viewer.id, ...STANDING_PLEDGE },
      select: { id: true },
    });
    if (existing) throw fail("alreadyCommitted", "CONFLICT");

    const paid = isPaidEvent(snapshot);
    const crowdfund = isCrowdfund(snapshot);
    const card: Card = paid ? await getGateway().getCard(viewer, input.paymentMethodId) : null;
    return { paid, crowdfund, card };
  });

  let result: CommitResult;
  try {
    result = await inGroups<Entry, CommitResult>(input.campaignId, { viewer, input, pre }, commitGroup);
  } catch (err) {
    // Two submits of one user racing past the checks: the unique (campaignId, userId) index wins.
    if (!isAppError(err) && isUniqueViolation(err)) throw fail("alreadyCommitted", "CONFLICT");
    throw err;
  }

  void kickEmailSender();
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

type Entry = { viewer: Viewer; input: ReturnType<typeof parseCommitInput>; pre: Pre };

/** One commit on its own, as before group commit: the one statement, else the locked transaction. */
async function commitAlone({ viewer, input, pre }: Entry): Promise<CommitResult> {
  for (let attempt = 0; attempt < ONE_STATEMENT_ATTEMPTS; attempt++) {
    const now = new Date();
    const row = await readForCommit(db, input.campaignId, viewer.id);
    const d = decide(viewer, row, input, pre, now);
    // a recount the decision could not make (after the tip) needs the lock; a crossing too
    if (d.crossed || d.late || d.waitlisted || (d.recount && !d.counted)) break;
    const done = await commitInOneStatement(viewer, d, row!.version, now);
    if (done) return done;
  }
  return commitLocked(viewer, input, pre);
}

type Taken = { w: Waiting<Entry, CommitResult>; d: Decision; kind: "common" | "late"; write: BatchedCommit };

/**
 * Which commits are written in a group: the common one (the one statement's), and a late one to a
 * confirmed free event without conditions (confirmed on arrival). A group holds one kind; a crossing,
 * a waitlisted, a conditional or a paid late commit runs alone (commitLocked).
 */
function groupKind(d: Decision): Taken["kind"] | null {
  if (d.crossed || d.waitlisted || d.recount) return null;
  if (!d.late) return "common";
  return d.confirmed && !d.crowdfund && d.c.status === "charged" ? "late" : null;
}

/**
 * Decides the group's commits in arrival order, each on the row as the ones before it leave it
 * (decide() is pure). Stops at the first that tips, is late, waits in line or has a condition: it
 * and those after it are the next group's. Refusals are answered with the group.
 */
function decideInOrder(
  group: Waiting<Entry, CommitResult>[],
  row: NonNullable<Awaited<ReturnType<typeof readForBatch>>>,
  now: Date,
) {
  const { viewers, ...base } = row;
  let running: LockedCampaign = base;
  const taken: Taken[] = [];
  const refused: { w: Waiting<Entry, CommitResult>; err: unknown }[] = [];
  const seen = new Set<string>();
  let end = group.length;
  for (const [i, w] of group.entries()) {
    const { viewer, input, pre } = w.entry;
    const [committed, userEmail, userName] = viewers?.[viewer.id] ?? [false, null, null];
    const c = { ...running, alreadyCommitted: committed || seen.has(viewer.id), userEmail, userName };
    let d: Decision;
    try {
      d = decide(viewer, c, input, pre, now);
    } catch (err) {
      refused.push({ w, err });
      continue;
    }
    const kind = groupKind(d);
    if (kind === null || (taken.length > 0 && kind !== taken[0]!.kind)) {
      end = i;
      break;
    }
    const pledgeId = newId();
    const emails = [commitEmail(viewer, d, pledgeId, { members: d.committedCount, member: d.member })];
    // a late member of a confirmed free event is confirmed on arrival, told so (confirmJoinedIfFree)
    if (kind === "late")
      emails.unshift(
        eventConfirmedEmail(
          c,
          { userId: viewer.id, email: c.userEmail ?? viewer.email, name: c.userName },
          0,
        ),
      );
    const {
      campaignId: _c,
      now: _n,
      committedCount: _k,
      raisedCents: _r,
      ...write
    } = commitWrite(viewer, d, pledgeId, now, d.member);
    taken.push({
      w,
      d,
      kind,
      write: {
        ...write,
        counts: d.committedCount > running.committedCount,
        emails: emails.map((e) => ({ id: newId(), ...outboxColumns(e) })),
      },
    });
    seen.add(viewer.id);
    running = {
      ...running,
      committedCount: d.committedCount,
      raisedCents: d.raisedCents,
      pledgeCount: running.pledgeCount + 1,
    };
  }
  return { taken, refused, end };
}

/**
 * Group commit (issue 32, the hot event): the commits that queued for one event while the previous
 * group was written are read once, decided in order (decideInOrder) and written in ONE statement
 * (lib/events/commit commitMany: one row lock, one WAL flush). A group of one, or one whose first
 * commit tips, is late or waits in line, runs that commit alone exactly as before; a row that moved
 * under the group (another instance) runs its first commit alone. Returns how many it answered.
 */
async function commitGroup(group: Waiting<Entry, CommitResult>[]): Promise<number> {
  const alone = async () => {
    await commitAlone(group[0]!.entry).then(group[0]!.resolve, group[0]!.reject);
    return 1;
  };
  if (group.length === 1) return alone();
  const now = new Date();
  const { campaignId } = group[0]!.entry.input;
  const row = await readForBatch(
    db,
    campaignId,
    group.map((w) => w.entry.viewer.id),
  );
  if (!row) return alone();
  const { taken, refused, end } = decideInOrder(group, row, now);
  if (taken.length < 2) return alone();
  // a failed group statement wrote nothing: its first commit runs alone (and so, in turn, the rest)
  const writes = taken.map((t) => t.write);
  const late = taken[0]!.kind === "late";
  const written = await commitMany(db, campaignId, row.version, writes, now, late).catch(() => null);
  if (!written?.locked) return alone();
  const inserted = new Set(written.inserted);
  for (const { w, d, write } of taken) {
    // the row was locked: the only way not to insert is the unique live (campaignId, userId) index
    if (inserted.has(write.pledgeId)) w.resolve(resultOf(d, write.pledgeId, late ? "charged" : "pending"));
    else w.reject(fail("alreadyCommitted", "CONFLICT"));
  }
  for (const { w, err } of refused) w.reject(err);
  return end;
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
          const written = await commit(tx, commitWrite(viewer, d, pledgeId, now, false), {
            version: null,
            joinUpTo: null,
            email: null,
          });
          if (!written.pledgeId) throw fail("alreadyCommitted", "CONFLICT");
          if (d.waitlisted) {
            await queueEmail(tx, commitEmail(viewer, d, pledgeId));
            return resultOf(
              d,
              pledgeId,
              c.status === "charged" ? "charged" : d.late || c.status !== "pending" ? "funded" : "pending",
            );
          }

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
            await confirmJoinedIfFree(tx, c.id, member ? [pledgeId, ...joined] : joined, now);
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
