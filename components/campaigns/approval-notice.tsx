import type { CampaignView } from "@/lib/campaigns/queries";
import { isApproved } from "@/lib/access/rules";
import { RejectionNotice } from "@/components/campaigns/rejection-notice";

/** Pending/rejected notice for the creator (admins get the moderation panel instead). */
export function ApprovalNotice({ campaign }: { campaign: CampaignView }) {
  if (isApproved(campaign) || campaign.viewer?.isAdmin) return null;
  if (campaign.approvalStatus === "pending") {
    return (
      <div role="status" className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-900">
        <p className="font-semibold">Pending approval</p>
        <p className="text-sm">
          This event is waiting for an admin to approve it. Only you and the admins can see it until then; it
          will appear on the home page once approved.
        </p>
      </div>
    );
  }
  // issue 34: the organizer sees the reason and may edit and resubmit
  return <RejectionNotice campaign={campaign} actor={campaign.viewer} />;
}
