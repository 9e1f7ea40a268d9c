import type { Metadata } from "next";
import { EventPage } from "@/components/campaigns/event-page";
import { getViewer } from "@/lib/access/viewer";
import { campaignMetadata } from "@/components/campaigns/event-metadata";

type Props = { params: Promise<{ campaignId: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { campaignId } = await params;
  return campaignMetadata(campaignId, await getViewer());
}

/**
 * Event page, rendered per request for signed-in viewers (visitors are usually served the cached
 * copy from app/v/campaign, see proxy.ts). The body is components/campaigns/event-page.tsx.
 */
export default async function CampaignPage({ params }: Props) {
  const { campaignId } = await params;
  return <EventPage campaignId={campaignId} viewer={await getViewer()} />;
}
