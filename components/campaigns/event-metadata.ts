import type { Metadata } from "next";
import type { Viewer } from "@/lib/auth/viewer";
import { getCampaignForViewer } from "@/lib/campaigns/queries";

/** Title and description for link previews; never an identity (the description is the organiser's). */
export async function campaignMetadata(campaignId: string, viewer: Viewer | null): Promise<Metadata> {
  const campaign = await getCampaignForViewer(campaignId, viewer);
  if (!campaign) return { title: "Campaign not found" };
  const description = campaign.description.length > 200 ? `${campaign.description.slice(0, 197)}...` : campaign.description;
  return {
    title: campaign.title,
    description,
    openGraph: { title: campaign.title, description, type: "website" },
    twitter: { card: "summary", title: campaign.title, description },
  };
}

