import "server-only";
import { db } from "@/lib/db";
import { seeCampaign } from "@/lib/campaigns/queries";
import { UPDATES_PER_DAY } from "@/lib/updates/schema";
import { type Actor, canManageEvent } from "@/lib/access/rules";

type UpdatesView = {
  updates: Array<{ id: string; text: string; createdAt: Date }>;
  canPost: boolean;
  /** updates the organizer may still post in the current 24 hours */
  remainingToday: number;
  committers: number;
};

/** The organizer's updates on an event, newest first (the author is always the organizer). Null when the event does not exist for the viewer. */
export async function getUpdatesView(
  campaignId: string,
  viewer: Actor,
  now = new Date(),
): Promise<UpdatesView | null> {
  const campaign = await seeCampaign(campaignId, viewer);
  if (!campaign) return null;
  const updates = await db.campaignUpdate.findMany({
    where: { campaignId },
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    take: 50,
    select: { id: true, text: true, createdAt: true },
  });
  const canPost = canManageEvent(viewer, campaign);
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
