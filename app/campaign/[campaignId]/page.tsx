import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/auth/viewer";
import { getCampaignForViewer } from "@/lib/campaigns/queries";
import { requestTime } from "@/lib/campaigns/countdown";
import { CampaignHeader } from "@/components/campaigns/campaign-header";
import { ApprovalNotice } from "@/components/campaigns/approval-notice";
import { AdminApprovalPanel } from "@/components/campaigns/admin-approval-panel";
import { CampaignProgress } from "@/components/campaigns/campaign-progress";
import { LogisticalDetails } from "@/components/campaigns/logistical-details";
import { TicketPriceBox } from "@/components/campaigns/ticket-price-box";
import { PaymentInstructions } from "@/components/campaigns/payment-instructions";
import { CreatorBox } from "@/components/campaigns/creator-box";
import { CommentsSection } from "@/components/comments/comments-section";
import { UpdatesSection } from "@/components/updates/updates-section";
import { SharePanel } from "@/components/sharing/share-panel";
import { EventCommit } from "@/components/commit/event-commit";
import { EventCommitments } from "@/components/commit/event-commitments";

type Props = { params: Promise<{ campaignId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { campaignId } = await params;
  const campaign = await getCampaignForViewer(campaignId, await getViewer());
  if (!campaign) return { title: "Campaign not found" };
  const description = campaign.description.length > 200 ? `${campaign.description.slice(0, 197)}...` : campaign.description;
  return {
    title: campaign.title,
    description,
    openGraph: { title: campaign.title, description, type: "website" },
    twitter: { card: "summary", title: campaign.title, description },
  };
}

/**
 * Event page. A server component composed of section components (components/campaigns/*).
 * Other features plug in where marked: the commit panel beside the ticket price, comments at the end.
 */
export default async function CampaignPage({ params }: Props) {
  const { campaignId } = await params;
  const viewer = await getViewer();
  const campaign = await getCampaignForViewer(campaignId, viewer);
  // Missing, or not approved and the viewer is neither creator nor admin: it does not exist for them.
  if (!campaign) redirect("/");
  const now = requestTime();

  return (
    <div className="mx-auto max-w-6xl space-y-6 px-4 py-6 sm:py-10">
      <CampaignHeader campaign={campaign} />
      <ApprovalNotice campaign={campaign} />
      <AdminApprovalPanel campaign={campaign} />

      {/* On phones the ticket and commit panel follows the progress card instead of the long lists. */}
      <div className="grid gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr] lg:items-start">
        <div className="lg:col-span-2">
          <CampaignProgress campaign={campaign} now={now} />
        </div>

        <aside className="space-y-6 lg:row-span-2" aria-label="Tickets and organizer">
          <TicketPriceBox campaign={campaign} />
          <EventCommit campaignId={campaign.id} viewer={viewer} />
          <PaymentInstructions campaign={campaign} />
          <CreatorBox campaign={campaign} />
          <SharePanel campaign={campaign} now={now} />
        </aside>

        <div className="space-y-6 lg:col-span-2">
          <LogisticalDetails details={campaign.logisticalDetails} />
          <UpdatesSection campaign={campaign} />
          <EventCommitments campaignId={campaign.id} viewer={viewer} crowdfund={campaign.pactType === "crowdfund"} />
        </div>
      </div>

      <CommentsSection campaign={campaign} now={now} />
    </div>
  );
}
