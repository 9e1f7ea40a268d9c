import Link from "next/link";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/auth/viewer";
import { getCampaignForViewer } from "@/lib/campaigns/queries";
import { formatDate } from "@/lib/format";

export default async function CampaignPage({ params }: { params: Promise<{ campaignId: string }> }) {
  const { campaignId } = await params;
  const viewer = await getViewer();
  const campaign = await getCampaignForViewer(campaignId, viewer);
  if (!campaign) redirect("/");
  return (
    <div className="mx-auto max-w-3xl px-4 py-8">
      <Link href="/" className="text-sm text-brand-700">← Back to events</Link>
      <h1 className="mt-3 text-3xl font-bold">{campaign.title}</h1>
      <p className="mt-3 whitespace-pre-line text-slate-700">{campaign.description}</p>
      <p className="mt-4">Goal: {campaign.goal} attendees</p>
      <p>{campaign.committedCount} committed</p>
      <p>Deadline: {formatDate(campaign.deadline)}</p>
    </div>
  );
}
