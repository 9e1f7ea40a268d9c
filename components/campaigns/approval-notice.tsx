import type { CampaignView } from "@/lib/campaigns/queries";
import { isApproved } from "@/lib/access/rules";

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
  return (
    <div role="status" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-900">
      <p className="font-semibold">Event rejected</p>
      <p className="text-sm">An admin rejected this event. It is visible only to you and the admins.</p>
    </div>
  );
}
