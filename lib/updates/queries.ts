import "server-only";
import { db } from "@/lib/db";
import { canViewCampaign } from "@/lib/campaigns/policy";
import { getCampaignDetail } from "@/lib/campaigns/queries";
import type { PrivacyViewer } from "@/lib/privacy/rules";
import { canPostUpdate } from "@/lib/updates/policy";
import { UPDATES_PER_DAY } from "@/lib/updates/schema";

export type UpdatesView = {
  updates: Array<{ id: string; text: string; createdAt: Date }>;
  canPost: boolean;
  /** updates the organiser may still post in the current 24 hours */
  remainingToday: number;
  committers: number;
};

/** The organiser's updates on an event, newest first (the author is always the organiser). Null when the event does not exist for the viewer. */
export async function getUpdatesView(
  campaignId: string,
  viewer: PrivacyViewer,
  now = new Date(),
): Promise<UpdatesView | null> {
  const campaign = await getCampaignDetail(campaignId);
  if (!campaign || !canViewCampaign(viewer, campaign)) return null;
  const updates = await db.campaignUpdate.findMany({
    where: { campaignId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 50,
    select: { id: true, text: true, createdAt: true },
  });
  const canPost = canPostUpdate(viewer, campaign);
  const today = canPost
    ? updates.filter((u) => u.createdAt.getTime() > now.getTime() - 24 * 3600_000).length
    : 0;
  return {
    updates,
    canPost,
    remainingToday: Math.max(0, UPDATES_PER_DAY - today),
    committers: campaign.pledgeCount,
  };
}
