import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { renderAsVisitor } from "@/lib/auth/viewer";
import { getCampaignForViewer } from "@/lib/campaigns/queries";
import { requestTime } from "@/lib/campaigns/countdown";
import { EventPageView } from "@/components/campaigns/event-page-view";
import { campaignMetadata } from "@/components/campaigns/event-metadata";
import { loadEventPage } from "@/components/campaigns/event-data";

// The visitors' event page, cached: proxy.ts rewrites a signed-out "/campaign/{id}" here with the
// campaign's current version in the path (lib/cache/visitor-version.ts).
export const dynamicParams = true;
export const revalidate = false;
export async function generateStaticParams() {
  return [];
}

type Props = { params: Promise<{ campaignId: string; version: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  renderAsVisitor();
  return campaignMetadata((await params).campaignId, null);
}

export default async function VisitorCampaignPage({ params }: Props) {
  renderAsVisitor();
  const { campaignId } = await params;
  const campaign = await getCampaignForViewer(campaignId, null);
  if (!campaign) redirect("/");
  const now = requestTime();
  await loadEventPage(campaign.id, null, now);
  return <EventPageView campaign={campaign} viewer={null} now={now} />;
}
