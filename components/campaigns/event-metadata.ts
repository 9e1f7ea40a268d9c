import type { Metadata } from "next";
import type { Viewer } from "@/lib/access/viewer";
import { getCampaignForViewer } from "@/lib/campaigns/queries";
import { appUrl } from "@/lib/env";

/** Title and description for link previews; never an identity (the description is the organizer's). */
export async function campaignMetadata(campaignId: string, viewer: Viewer | null): Promise<Metadata> {
  const campaign = await getCampaignForViewer(campaignId, viewer);
  if (!campaign) return { title: "Campaign not found" };
  const description =
    campaign.description.length > 200 ? `${campaign.description.slice(0, 197)}...` : campaign.description;
  return {
    title: campaign.title,
    description,
    // The server-drawn preview (app/campaign/[campaignId]/opengraph-image.tsx), named explicitly so
    // the cached visitor copy (app/v/campaign) — the one crawlers get — carries it too.
    openGraph: {
      title: campaign.title,
      description,
      type: "website",
      images: [{ url: `${appUrl()}/campaign/${campaign.id}/opengraph-image`, width: 1200, height: 630 }],
    },
    twitter: {
      card: "summary_large_image",
      title: campaign.title,
      description,
      images: [`${appUrl()}/campaign/${campaign.id}/opengraph-image`],
    },
  };
}
