import "server-only";
import { db } from "@/lib/db";
import { canComment, canDeleteComment, canViewCampaign } from "@/lib/comments/policy";
import { canSeeCreatorEmail } from "@/lib/campaigns/policy";
import { presentComments, privacyCampaignSelect, type PresentedIdentity } from "@/lib/privacy/present";
import type { PrivacyCampaign, PrivacyViewer } from "@/lib/privacy/rules";

/** The newest comments shown on an event page. */
export const COMMENTS_SHOWN = 100;

export type PresentedComment = PresentedIdentity & { id: string; text: string; createdAt: Date; isOrganizer: boolean };

export type CommentsView = {
  comments: PresentedComment[];
  total: number;
  canPost: boolean;
  canDelete: boolean;
  signedIn: boolean;
  /** Why a signed-in viewer cannot post (event not approved), for the form's place. */
  approvalStatus: string;
};

/**
 * The comments of an event as `viewer` may see them, newest first, identities already removed where
 * hidden. Null when the event does not exist for this viewer.
 */
export async function getCommentsView(campaignId: string, viewer: PrivacyViewer, now: Date = new Date()): Promise<CommentsView | null> {
  const campaign = await db.campaign.findUnique({
    where: { id: campaignId },
    select: { ...privacyCampaignSelect, approvalStatus: true },
  });
  if (!campaign || !canViewCampaign(viewer, campaign)) return null;

  const [rows, firsts, total] = await Promise.all([
    db.comment.findMany({
      where: { campaignId },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: COMMENTS_SHOWN,
      select: { id: true, text: true, createdAt: true, authorId: true, author: { select: { name: true, email: true } } },
    }),
    db.comment.groupBy({ by: ["authorId"], where: { campaignId }, _min: { createdAt: true } }),
    db.comment.count({ where: { campaignId } }),
  ]);

  const committed = viewer
    ? Boolean(await db.pledge.findUnique({ where: { campaignId_userId: { campaignId, userId: viewer.id } }, select: { id: true } }))
    : false;
  const privacyCampaign: PrivacyCampaign = { ...campaign, pactType: campaign.pactType ?? null };
  const comments = presentComments(
    viewer,
    privacyCampaign,
    rows,
    firsts.flatMap((f) => (f._min.createdAt ? [{ authorId: f.authorId, at: f._min.createdAt }] : [])),
    now,
    { seesOrganizer: canSeeCreatorEmail(viewer, campaign, committed) },
  );
  return {
    comments,
    total,
    canPost: canComment(viewer, campaign),
    canDelete: canDeleteComment(viewer, campaign),
    signedIn: Boolean(viewer),
    approvalStatus: campaign.approvalStatus,
  };
}
