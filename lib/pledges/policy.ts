/**
 * Who may commit and who may manage (SPEC §4, §6; DESIGN §1). Pure functions: the commit
 * transaction and the manage queries call them with fresh rows, and the UI uses the same answers to
 * disable the Commit button (hiding a button is never the check itself).
 */
export type PolicyViewer = { id: string; isAdmin: boolean } | null;

export type CommitPolicyCampaign = {
  creatorId: string;
  status: string; // CampaignStatus
  approvalStatus: string; // ApprovalStatus
  deadline: Date;
  /** issue 7: "Keep accepting commitments after the threshold" (default off, as SPEC) */
  acceptAfterThreshold?: boolean;
};

/** Statuses in which an event that keeps accepting after its threshold still takes commitments. */
export const LATE_OPEN_STATUSES = new Set(["funded", "charging", "charged"]);

/** Whether a commit now would arrive after the threshold (and so be charged at once). */
export const isLateCommit = (c: Pick<CommitPolicyCampaign, "status" | "acceptAfterThreshold">) =>
  Boolean(c.acceptAfterThreshold) && LATE_OPEN_STATUSES.has(c.status);

/** Statuses after which no new commitment is taken (DESIGN §1 "after confirmation"). */
export const CLOSED_STATUSES = new Set(["funded", "charging", "charged", "expired", "cancelled"]);

export const COMMIT_MESSAGES = {
  signedOut: "Please sign in to commit to this event",
  alreadyCommitted: "You have already committed to this event",
  saveFailed: "Error recording your pledge. Please try again.",
  notApproved: "This event is not open for commitments until it is approved.",
  closed: "This event is no longer accepting commitments.",
  ended: "This event has ended and is no longer accepting commitments.",
  paymentRequired: "Please save a payment method to commit to this paid event.",
  notFound: "Campaign not found",
} as const;

export const MANAGE_DENIED_MESSAGE = "Campaign not found or you don't have permission to manage it";
/** The `?notice=` code the manage page redirects home with; the home page maps it to the text above. */
export const MANAGE_DENIED_NOTICE = "manage-denied";

export type CommitBlock = keyof Pick<
  typeof COMMIT_MESSAGES,
  "signedOut" | "alreadyCommitted" | "notApproved" | "closed" | "ended"
>;

/**
 * Why `viewer` may not commit now, or null when they may. Order matters for the message shown:
 * sign-in first, then the viewer's own pledge, then the event's state.
 */
export function commitBlock(
  viewer: PolicyViewer,
  c: CommitPolicyCampaign,
  alreadyCommitted: boolean,
  now: Date,
): CommitBlock | null {
  if (!viewer) return "signedOut";
  if (alreadyCommitted) return "alreadyCommitted";
  if (c.approvalStatus !== "approved" && !viewer.isAdmin) return "notApproved";
  if (CLOSED_STATUSES.has(c.status) && !isLateCommit(c)) return "closed";
  if (c.deadline.getTime() <= now.getTime()) return "ended";
  return null;
}

/** Only the creator manages a campaign (SPEC §6: "manage page for own campaigns only"). */
export const canManageCampaign = (viewer: PolicyViewer, c: { creatorId: string }) =>
  Boolean(viewer && viewer.id === c.creatorId);

/** A paid event needs a saved card per pledge; free means a ticket price of 0 (SPEC §9). */
export { isPaidEvent } from "@/lib/campaigns/pact";
