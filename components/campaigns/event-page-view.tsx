import type { Viewer } from "@/lib/access/viewer";
import type { CampaignView } from "@/lib/campaigns/queries";
import { CampaignHeader } from "@/components/campaigns/campaign-header";
import { ApprovalNotice } from "@/components/campaigns/approval-notice";
import { PayoutsSetupPanel } from "@/components/payouts/payouts-setup-panel";
import { AdminApprovalPanel } from "@/components/campaigns/admin-approval-panel";
import { CampaignProgress } from "@/components/campaigns/campaign-progress";
import { CascadeSection } from "@/components/campaigns/cascade";
import { isConfirmed, phaseOf } from "@/lib/events/lifecycle";
import { EVENT_ACTIONS, actionState } from "@/lib/events/actions";
import { EventTexts, LogisticalDetails } from "@/components/campaigns/logistical-details";
import { pageTexts } from "@/lib/campaigns/schema";
import { TicketPriceBox } from "@/components/campaigns/ticket-price-box";
import { WhenWhere } from "@/components/campaigns/when-where";
import { PaymentInstructions } from "@/components/campaigns/payment-instructions";
import { CreatorBox } from "@/components/campaigns/creator-box";
import { CommentsSection } from "@/components/comments/comments-section";
import { UpdatesSection } from "@/components/updates/updates-section";
import { SharePanel } from "@/components/sharing/share-panel";
import { CancelEventPanel } from "@/components/cancellation/cancel-event-panel";
import { OutcomeNotice } from "@/components/deadlines/outcome-notice";
import { EventCommit } from "@/components/commit/event-commit";
import { EventCommitments } from "@/components/commit/event-commitments";
import { EventTicket } from "@/components/tickets/event-ticket";

/**
 * Event page body, shared by the per-request page (app/campaign/[campaignId]/(event)/page.tsx) and the
 * cached visitor page (app/v/campaign/...). A server component composed of section components;
 * other features plug in where marked: the commit panel beside the ticket price, comments at the end.
 */
export function EventPageView({
  campaign,
  viewer,
  now,
}: {
  campaign: CampaignView;
  viewer: Viewer | null;
  now: number;
}) {
  // what this state offers: one table (lib/events/actions.ts), read here for every section below
  const actions = EVENT_ACTIONS[actionState(campaign, new Date(now))];
  return (
    // pb-24 on small screens: room for the sticky commit bar (components/commit/commit-section.tsx)
    <div className="mx-auto max-w-6xl space-y-6 px-4 pt-6 pb-24 sm:pt-10 lg:pb-10">
      <CampaignHeader campaign={campaign} now={now} />
      <WhenWhere campaign={campaign} />
      <ApprovalNotice campaign={campaign} />
      <PayoutsSetupPanel campaign={campaign} viewer={viewer} />
      <OutcomeNotice campaign={campaign} />
      <AdminApprovalPanel campaign={campaign} />

      {/* On phones the ticket and commit panel follows the progress card instead of the long lists. */}
      <div className="grid gap-6 lg:grid-cols-3 lg:grid-rows-[auto_1fr] lg:items-start">
        <div className="min-w-0 lg:col-span-2">
          <CampaignProgress campaign={campaign} now={now} />
          <div className="mt-6 empty:hidden">
            <CascadeSection
              campaignId={campaign.id}
              collecting={phaseOf(campaign, new Date(now)) === "collecting"}
            />
          </div>
        </div>

        <aside className="min-w-0 space-y-6 lg:row-span-2" aria-label="Tickets and organizer">
          <TicketPriceBox campaign={campaign} now={now} />
          <EventCommit campaignId={campaign.id} viewer={viewer} />
          {/* issue 36: the holder's ticket, fetched by their browser (never part of a shared copy) */}
          {isConfirmed(campaign.status) && campaign.viewer?.committed && (
            <EventTicket campaignId={campaign.id} />
          )}
          <PaymentInstructions campaign={campaign} />
          <CreatorBox campaign={campaign} canEdit={actions.edit} />
          <SharePanel campaign={campaign} viewer={viewer} now={now} actions={actions} />
          <CancelEventPanel campaign={campaign} />
        </aside>

        <div className="min-w-0 space-y-6 lg:col-span-2">
          <LogisticalDetails details={campaign.logisticalDetails} />
          <EventTexts texts={pageTexts(campaign)} />
          <UpdatesSection campaign={campaign} viewer={viewer} canPostNow={actions.postUpdate} />
          <EventCommitments
            campaignId={campaign.id}
            viewer={viewer}
            crowdfund={campaign.pactType === "crowdfund"}
          />
        </div>
      </div>

      <CommentsSection campaign={campaign} viewer={viewer} now={now} />
    </div>
  );
}
