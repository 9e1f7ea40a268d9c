import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/auth/viewer";
import { getCampaignForViewer } from "@/lib/campaigns/queries";
import { requestTime } from "@/lib/campaigns/countdown";
import { EventPageView } from "@/components/campaigns/event-page-view";
import { campaignMetadata } from "@/components/campaigns/event-metadata";
import { loadEventPage } from "@/components/campaigns/event-data";

type Props = { params: Promise<{ campaignId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { campaignId } = await params;
  return campaignMetadata(campaignId, await getViewer());
}

/**
 * Event page, rendered per request for signed-in viewers (visitors are usually served the cached
 * copy from app/v/campaign, see proxy.ts). The body is components/campaigns/event-page-view.tsx.
 */
export default async function CampaignPage({ params }: Props) {
  const { campaignId } = await params;
  const viewer = await getViewer();
  const campaign = await getCampaignForViewer(campaignId, viewer);
  // Missing, or not approved and the viewer is neither creator nor admin: it does not exist for them.
  if (!campaign) redirect("/");
  const now = requestTime();
  await loadEventPage(campaign.id, viewer, now);
  return <EventPageView campaign={campaign} viewer={viewer} now={now} />;
}
