import "server-only";
import { contributorText } from "@/lib/privacy/present";
import type { CommitWrite } from "@/lib/events/commit";
import type { Viewer } from "@/lib/access/viewer";
import { commitReceivedEmail } from "@/lib/campaigns/emails";
import type { Decision } from "@/lib/pledges/decide";
import { waitlistJoinedEmail } from "@/lib/campaigns/waitlist-emails";
import { conditionalCommitEmail } from "@/lib/campaigns/condition-emails";
import { newId } from "@/lib/campaigns/commit-slots";

/** What a commit writes, as decided: its confirmation email and its pledge row (lib/pledges/service, commit-group). */
/** The backer's confirmation (DESIGN §1: queued in the commit's own transaction), for the row after the commit. */
export function commitEmail(
  viewer: Viewer,
  d: Decision,
  pledgeId: string,
  /** after a recount (issue 21): the members, and whether this commitment is one */
  counted: { members: number; member: boolean } = { members: d.committedCount, member: true },
) {
  const { c } = d;
  const to = { userId: viewer.id, email: c.userEmail ?? viewer.email, name: c.userName };
  if (d.waitlisted) return waitlistJoinedEmail(c, to, pledgeId, d.position ?? c.waitlistCount + 1, d.seats);
  // the row as this commit leaves it: people and, for a crowdfund, dollars
  const campaign = { ...c, committedCount: counted.members, raisedCents: d.raisedCents };
  if (!counted.member && d.minPeople !== null)
    return conditionalCommitEmail(campaign, to, pledgeId, d.minPeople, d.pledgeCents);
  return commitReceivedEmail(
    campaign,
    { userId: viewer.id, email: c.userEmail ?? viewer.email, name: c.userName },
    pledgeId,
    d.pledgeCents,
    d.seats,
  );
}

/** The commit transition's pledge row and counters (lib/events/commit), as `d` decided them. */
export function commitWrite(
  viewer: Viewer,
  d: Decision,
  pledgeId: string,
  now: Date,
  member: boolean,
): CommitWrite {
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
    // issue 37: the holder's extra seats, each its own pledge in the group
    extraSeats: Array.from({ length: d.seats - 1 }, () => newId()),
    partialOk: d.partialOk,
    committedCount: d.committedCount,
    raisedCents: d.raisedCents,
    now,
  };
}
