import "server-only";
import { redirect } from "next/navigation";
import { EVENT_NOT_FOUND_NOTICE } from "@/lib/access/texts";
import type { Viewer } from "@/lib/access/viewer";
import { getCampaignForViewer } from "@/lib/campaigns/queries";
import { requestTime } from "@/lib/campaigns/countdown";
import { EventPageView } from "@/components/campaigns/event-page-view";
import { loadEventPage } from "@/components/campaigns/event-data";

/**
 * The event page as `viewer` sees it, for both routes that serve it (app/campaign per request,
 * app/v/campaign cached): every section's reads start at once, then the page renders in one pass.
 * Missing, or not approved and the viewer is neither creator nor admin: it does not exist for them.
 */
export async function EventPage({ campaignId, viewer }: { campaignId: string; viewer: Viewer | null }) {
  const campaign = await getCampaignForViewer(campaignId, viewer);
  if (!campaign) redirect(`/?notice=${EVENT_NOT_FOUND_NOTICE}`);
  const now = requestTime();
  await loadEventPage(campaign.id, viewer, now);
  return <EventPageView campaign={campaign} viewer={viewer} now={now} />;
}
