import { getViewer } from "@/lib/access/viewer";
import { isCancellable } from "@/lib/events/lifecycle";
import { CancelEvent } from "@/components/campaigns/lazy-tools";
import { canOverseeEvent } from "@/lib/access/rules";

type CampaignForCancel = {
  id: string;
  creatorId: string;
  status: string;
  pledgeCount?: number;
  committedCount: number;
};

/** Shown to the organizer (and admins) while the event can still be cancelled. */
export async function CancelEventPanel({ campaign }: { campaign: CampaignForCancel }) {
  const viewer = await getViewer();
  if (!canOverseeEvent(viewer, campaign) || !isCancellable(campaign.status)) return null;
  return (
    <CancelEvent
      campaignId={campaign.id}
      confirmed={campaign.status !== "pending"}
      committers={campaign.pledgeCount ?? campaign.committedCount}
    />
  );
}
