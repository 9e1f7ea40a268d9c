import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Cover } from "@/components/campaigns/cover";
import type { CampaignView } from "@/lib/campaigns/queries";
import { eventBadge } from "@/lib/events/lifecycle";
import { isApproved } from "@/lib/access/rules";

export function CampaignHeader({ campaign, now }: { campaign: CampaignView; now: number }) {
  const badge = eventBadge(campaign, new Date(now));
  const privileged = Boolean(campaign.viewer && (campaign.viewer.isAdmin || campaign.viewer.isCreator));
  return (
    <header className="space-y-3">
      <Link
        href="/"
        className="inline-flex items-center gap-1 text-sm font-medium text-brand-700 hover:underline"
      >
        <span aria-hidden>←</span> Back to events
      </Link>
      <Cover
        id={campaign.id}
        title={campaign.title}
        coverId={campaign.coverId}
        sizes="(min-width: 1152px) 1152px, 100vw"
        aspect="aspect-[16/9] sm:aspect-[5/2] lg:aspect-[3/1]"
        className="rounded-2xl shadow-sm"
        eager
      />
      <div className="flex flex-wrap items-center gap-2">
        {/* one state badge: an event not yet approved shows its approval, not a phase (issue 16) */}
        {(isApproved(campaign) || privileged) && <Badge tone={badge.tone}>{badge.label}</Badge>}
        {campaign.pactType === "crowdfund" && <Badge tone="purple">Crowdfund</Badge>}
        {campaign.isTest && <Badge tone="amber">TEST</Badge>}
      </div>
      <h1 className="text-3xl font-bold wrap-anywhere text-slate-900 sm:text-4xl">{campaign.title}</h1>
      <p className="whitespace-pre-line wrap-anywhere text-lg text-slate-700">{campaign.description}</p>
    </header>
  );
}
