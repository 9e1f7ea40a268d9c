import type { PrivacyViewer } from "@/lib/privacy/rules";

type CampaignForComments = { creatorId: string; approvalStatus: string };

/** SPEC §4/§6: comments need a signed-in user and an approved event; admins may always comment. */
export function canComment(
  viewer: PrivacyViewer,
  campaign: Pick<CampaignForComments, "approvalStatus">,
): boolean {
  if (!viewer) return false;
  return viewer.isAdmin || campaign.approvalStatus === "approved";
}

/** The organiser (creator) of the event and admins may delete any comment on it. */
export function canDeleteComment(
  viewer: PrivacyViewer,
  campaign: Pick<CampaignForComments, "creatorId">,
): boolean {
  if (!viewer) return false;
  return viewer.isAdmin || viewer.id === campaign.creatorId;
}

/** Who may see the event (and so its comments): one rule for the whole app. */
export { canViewCampaign } from "@/lib/campaigns/policy";
