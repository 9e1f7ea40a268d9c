import type { Metadata } from "next";
import { notFound } from "next/navigation";
import { verifiedVersion } from "@/lib/cache/signed-path";
import { EventPage } from "@/components/campaigns/event-page";
import { getViewer, renderAsMember, renderAsOrganizer, renderAsVisitor } from "@/lib/access/viewer";
import { MEMBER_EVENT, organizerOfVersion } from "@/lib/cache/visitor-version";
import { campaignMetadata } from "@/components/campaigns/event-metadata";

// The visitors' event page, cached: proxy.ts rewrites a signed-out "/campaign/{id}" here with the
// campaign's current version in the path (lib/cache/visitor-version.ts). A version ending in one of
// MEMBER_EVENT's suffixes is the copy for signed-in members (committed or not) whose own entries
// are not on the page, and one ending in `~o<stamp>.<user id>` is the copy made for that event's
// organizer alone (issue 35); proxy.ts alone decides who gets which (outside requests for /v/ are refused).
// Only a version the proxy signed is rendered (and so cached): anything else is not found.
function renderFor(campaignId: string, signed: string) {
  const version = verifiedVersion(`campaign/${campaignId}`, signed);
  if (!version) notFound();
  const organizer = organizerOfVersion(version);
  if (organizer) renderAsOrganizer(organizer);
  else if (version.endsWith(MEMBER_EVENT.committed)) renderAsMember(true);
  else if (version.endsWith(MEMBER_EVENT.member)) renderAsMember(false);
  else renderAsVisitor();
}
export const dynamicParams = true;
export const revalidate = false;
export async function generateStaticParams() {
  return [];
}

type Props = { params: Promise<{ campaignId: string; version: string }> };

export async function generateMetadata({ params }: Props): Promise<Metadata> {
  const { campaignId, version } = await params;
  renderFor(campaignId, version);
  return campaignMetadata(campaignId, await getViewer());
}

export default async function VisitorCampaignPage({ params }: Props) {
  const { campaignId, version } = await params;
  renderFor(campaignId, version);
  return <EventPage campaignId={campaignId} viewer={await getViewer()} />;
}
