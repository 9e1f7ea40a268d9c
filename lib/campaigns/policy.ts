/**
 * Who may do what with a campaign (SPEC §6, DESIGN §1). Pure functions; services and queries call
 * them so the rule lives in one place and is checked on the server.
 */
export type PolicyViewer = { id: string; isAdmin: boolean } | null;
export type ApprovalState = "pending" | "approved" | "rejected";

/** Non-approved events exist only for their creator and admins. */
export function canViewCampaign(
  viewer: PolicyViewer,
  c: { creatorId: string; approvalStatus: ApprovalState },
): boolean {
  if (c.approvalStatus === "approved") return true;
  return Boolean(viewer && (viewer.isAdmin || viewer.id === c.creatorId));
}

export const canModerate = (viewer: PolicyViewer): boolean => Boolean(viewer?.isAdmin);

export const isCreator = (viewer: PolicyViewer, c: { creatorId: string }): boolean =>
  Boolean(viewer && viewer.id === c.creatorId);

/** DESIGN §1: the creator's email is shown to the creator, admins and users who committed. */
export function canSeeCreatorEmail(
  viewer: PolicyViewer,
  c: { creatorId: string },
  viewerCommitted: boolean,
): boolean {
  if (!viewer) return false;
  return viewer.isAdmin || viewer.id === c.creatorId || viewerCommitted;
}
