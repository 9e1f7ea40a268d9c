import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import type { CampaignView } from "@/lib/campaigns/queries";
import { statusLabel } from "@/lib/campaigns/lifecycle";

export function CampaignHeader({ campaign }: { campaign: CampaignView }) {
  const privileged = Boolean(campaign.viewer && (campaign.viewer.isAdmin || campaign.viewer.isCreator));
  return (
    <header className="space-y-3">
      <Link
        href="/"
        className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
      >
        <span aria-hidden>←</span> Back to events
      </Link>
      <div className="flex flex-wrap items-center gap-2">
        <Badge tone={campaign.status === "charged" ? "green" : "brand"}>{statusLabel(campaign.status)}</Badge>
        {campaign.pactType === "crowdfund" && <Badge tone="purple">Crowdfund</Badge>}
        {campaign.isTest && <Badge tone="amber">TEST</Badge>}
        {privileged && campaign.approvalStatus === "pending" && <Badge tone="amber">PENDING</Badge>}
        {privileged && campaign.approvalStatus === "rejected" && <Badge tone="red">REJECTED</Badge>}
      </div>
      <h1 className="text-3xl font-bold break-words text-slate-900 sm:text-4xl">{campaign.title}</h1>
      <p className="whitespace-pre-line break-words text-lg text-slate-700">{campaign.description}</p>
    </header>
  );
}
