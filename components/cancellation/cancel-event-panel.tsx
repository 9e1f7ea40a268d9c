import { getViewer } from "@/lib/auth/viewer";
import { canCancelCampaign, isCancellable } from "@/lib/cancellation/policy";
import { CancelEvent } from "@/components/cancellation/cancel-event";

type CampaignForCancel = {
  id: string;
  creatorId: string;
  status: string;
  pledgeCount?: number;
  committedCount: number;
};

/** Shown to the organiser (and admins) while the event can still be cancelled. */
export async function CancelEventPanel({ campaign }: { campaign: CampaignForCancel }) {
  const viewer = await getViewer();
  if (!canCancelCampaign(viewer, campaign) || !isCancellable(campaign.status)) return null;
  return (
    <CancelEvent
      campaignId={campaign.id}
      confirmed={campaign.status !== "pending"}
      committers={campaign.pledgeCount ?? campaign.committedCount}
    />
  );
}
