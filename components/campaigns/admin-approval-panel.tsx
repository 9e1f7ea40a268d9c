import type { CampaignView } from "@/lib/campaigns/queries";
import { Badge } from "@/components/ui/badge";
import { ApprovalButtons } from "@/components/campaigns/lazy-tools";
import { isRejectable } from "@/lib/events/lifecycle";

const tone = { pending: "amber", approved: "green", rejected: "red" } as const;
const label = { pending: "PENDING", approved: "Approved", rejected: "REJECTED" } as const;

/** Moderation panel shown to admins on the event page. */
export function AdminApprovalPanel({ campaign }: { campaign: CampaignView }) {
  if (!campaign.viewer?.isAdmin) return null;
  return (
    <section
      aria-labelledby="admin-approval"
      className="rounded-xl border border-purple-200 bg-purple-50 p-4"
    >
      <div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
        <div>
          <h2 id="admin-approval" className="font-semibold text-purple-900">
            Admin: approval status
          </h2>
          <div className="mt-1">
            <Badge tone={tone[campaign.approvalStatus]}>{label[campaign.approvalStatus]}</Badge>
          </div>
        </div>
        <ApprovalButtons
          campaignId={campaign.id}
          approvalStatus={campaign.approvalStatus}
          rejectable={isRejectable(campaign.status)}
          size="md"
        />
      </div>
    </section>
  );
}
