import "server-only";
import { db } from "@/lib/db";
import { commitMany, type BatchedCommit } from "@/lib/events/commit";
import type { Viewer } from "@/lib/access/viewer";
import { eventConfirmedEmail } from "@/lib/campaigns/emails";
import { outboxColumns } from "@/lib/email/service";
import {
  decide,
  fail,
  readForBatch,
  resultOf,
  type CommitResult,
  type Decision,
  type LockedCampaign,
  type parseCommitInput,
  type Pre,
} from "@/lib/pledges/decide";
import { newId, type Waiting } from "@/lib/campaigns/commit-slots";
import { commitEmail, commitWrite } from "@/lib/pledges/commit-rows";

/** Group commit (issue 32, the hot event): the commits queued for one event, decided and written together. */
export type Entry = { viewer: Viewer; input: ReturnType<typeof parseCommitInput>; pre: Pre };

type Taken = { w: Waiting<Entry, CommitResult>; d: Decision; kind: "common" | "late"; write: BatchedCommit };

/**
 * Which commits are written in a group: the common one (the one statement's), and a late one to a
 * confirmed free event without conditions (confirmed on arrival). A group holds one kind; a crossing,
 * a waitlisted, a conditional or a paid late commit runs alone (commitLocked).
 */
function groupKind(d: Decision): Taken["kind"] | null {
  // issue 37: a group of seats runs alone too (its seats are written together under the lock)
  if (d.crossed || d.waitlisted || d.recount || d.seats > 1) return null;
  if (!d.late) return "common";
  return d.confirmed && !d.crowdfund && d.c.status === "charged" ? "late" : null;
}

/**
 * Decides the group's commits in arrival order, each on the row as the ones before it leave it
 * (decide() is pure). Stops at the first that groupKind leaves alone (tips, waits in line, has a
 * condition, a paid late one) or of another kind than the first: it and those after it are the next
 * group's. Refusals are answered with the group.
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
 * commit tips, waits in line or has a condition, runs that commit alone exactly as before; a row that moved
 * under the group (another instance) runs its first commit alone. Returns how many it answered.
 */
export async function commitGroup(
  group: Waiting<Entry, CommitResult>[],
  commitAlone: (e: Entry) => Promise<CommitResult>,
): Promise<number> {
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
