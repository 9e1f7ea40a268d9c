/**
 * Identity revelation (SPEC §4, DESIGN §1): the single place that decides whether a viewer may see
 * who an attendee or commenter is. Pure and synchronous; callers strip hidden identities on the
 * server before anything is rendered or serialised (see lib/privacy/present.ts).
 */
export type RevelationType = "never" | "onStart" | "immediate";

export type PrivacyViewer = { id: string; isAdmin: boolean } | null;

export type PrivacyCampaign = {
  creatorId: string;
  attendeesAnonymous: boolean;
  identityRevelationType: RevelationType;
  status: string; // CampaignStatus
  deadline: Date;
  goal: number;
  committedCount: number;
  /** Crowdfunds count dollars, not people (DESIGN §1 threshold): pass both to get their rule. */
  pactType?: string | null;
  raisedCents?: number | bigint; // bigint straight from the database (money sums)
};

const THRESHOLD_STATUSES = new Set(["funded", "charging", "charged"]);

export function thresholdMet(
  c: Pick<PrivacyCampaign, "status" | "goal" | "committedCount" | "pactType" | "raisedCents">,
): boolean {
  if (THRESHOLD_STATUSES.has(c.status)) return true;
  if (c.pactType === "crowdfund" && c.raisedCents !== undefined) return Number(c.raisedCents) >= c.goal * 100;
  return c.committedCount >= c.goal;
}

/** Whether identities are public at `now` for viewers with no special standing. */
export function identitiesPublic(c: PrivacyCampaign, now: Date): boolean {
  if (!c.attendeesAnonymous) return true;
  switch (c.identityRevelationType) {
    case "immediate":
      return thresholdMet(c);
    case "onStart":
      return now.getTime() >= c.deadline.getTime();
    case "never":
    default:
      return false;
  }
}

/** Whether `viewer` may see the identity of the user `subjectUserId` in campaign `c` at `now`. */
export function canSeeIdentity(
  viewer: PrivacyViewer,
  c: PrivacyCampaign,
  subjectUserId: string,
  now: Date,
): boolean {
  if (viewer && (viewer.isAdmin || viewer.id === c.creatorId || viewer.id === subjectUserId)) return true;
  return identitiesPublic(c, now);
}

/** Whether `viewer` sees every identity of the campaign (creator and admins). */
export const seesAllIdentities = (viewer: PrivacyViewer, c: Pick<PrivacyCampaign, "creatorId">) =>
  Boolean(viewer && (viewer.isAdmin || viewer.id === c.creatorId));

export const anonymousAttendee = (n: number) => `Anonymous Attendee #${n}`;
export const anonymousCommenter = (n: number) => `Anonymous Commenter #${n}`;
