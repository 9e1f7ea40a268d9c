import { CLOSED_STATUSES, inStatuses, isConfirmed } from "@/lib/campaigns/lifecycle";
import { canModerate, isApproved, type Actor } from "@/lib/access/rules";
import { ACCESS_TEXTS } from "@/lib/access/texts";

/**
 * Who may commit and who may manage (SPEC §4, §6; DESIGN §1). Pure functions: the commit
 * transaction and the manage queries call them with fresh rows, and the UI uses the same answers to
 * disable the Commit button (hiding a button is never the check itself).
 */

type CommitPolicyCampaign = {
  creatorId: string;
  status: string; // CampaignStatus
  approvalStatus: string; // ApprovalStatus
  deadline: Date;
  /** issue 7: "Keep accepting commitments after the threshold" (default off, as SPEC) */
  acceptAfterThreshold?: boolean;
};

/** Whether a commit now would arrive after the threshold (and so be charged at once). */
export const isLateCommit = (c: Pick<CommitPolicyCampaign, "status" | "acceptAfterThreshold">) =>
  Boolean(c.acceptAfterThreshold) && isConfirmed(c.status);

export const COMMIT_MESSAGES = {
  signedOut: "Please sign in to commit to this event",
  alreadyCommitted: "You have already committed to this event",
  saveFailed: "Error recording your pledge. Please try again.",
  notApproved: "This event is not open for commitments until it is approved.",
  closed: "This event is no longer accepting commitments.",
  ended: "This event has ended and is no longer accepting commitments.",
  paymentRequired: "Please save a payment method to commit to this paid event.",
  notFound: ACCESS_TEXTS.campaignNotFound,
} as const;

export type CommitBlock = keyof Pick<
  typeof COMMIT_MESSAGES,
  "signedOut" | "alreadyCommitted" | "notApproved" | "closed" | "ended"
>;

/**
 * Why `viewer` may not commit now, or null when they may. Order matters for the message shown:
 * sign-in first, then the viewer's own pledge, then the event's state.
 */
export function commitBlock(
  viewer: Actor,
  c: CommitPolicyCampaign,
  alreadyCommitted: boolean,
  now: Date,
): CommitBlock | null {
  if (!viewer) return "signedOut";
  if (alreadyCommitted) return "alreadyCommitted";
  if (!isApproved(c) && !canModerate(viewer)) return "notApproved";
  if (inStatuses(CLOSED_STATUSES, c.status) && !isLateCommit(c)) return "closed";
  if (c.deadline.getTime() <= now.getTime()) return "ended";
  return null;
}
