"use client";

import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ProgressBar } from "@/components/ui/progress-bar";
import { ApprovalButtons } from "@/components/campaigns/lazy-tools";
import { Cover } from "@/components/campaigns/cover";
import type { HomeCard } from "@/lib/campaigns/display";

/**
 * A home grid card: the card body links to the event; admin buttons sit below it, outside the link.
 * A client component (issue 8): the page then carries each card's few fields once in its data
 * instead of the card's whole markup a second time.
 */
export function CampaignCard({ campaign, isAdmin }: { campaign: HomeCard; isAdmin: boolean }) {
  return (
    <article className="flex h-full flex-col rounded-xl border border-slate-200 bg-white shadow-sm transition-shadow hover:shadow-md">
      <Link href={`/campaign/${campaign.id}`} className="group flex flex-1 flex-col rounded-xl">
        <Cover
          id={campaign.id}
          title={campaign.title}
          coverId={campaign.coverId}
          sizes="(min-width: 1024px) 22rem, (min-width: 640px) 50vw, 100vw"
          className="rounded-t-xl"
          aspect="aspect-[2/1]"
        />
        <div className="flex flex-1 flex-col p-5">
          <div className="mb-2 flex min-h-5 flex-wrap gap-1.5">
            {campaign.isTest && <Badge tone="amber">TEST</Badge>}
            {/* one state badge: the approval until approved (admins only, SPEC §2), then the phase */}
            {(campaign.approvalStatus === "approved" || isAdmin) && (
              <Badge tone={campaign.badge.tone}>{campaign.badge.label}</Badge>
            )}
            <Badge tone={campaign.price === "Free" ? "green" : "slate"}>{campaign.price}</Badge>
          </div>
          <h3 className="text-lg font-semibold wrap-anywhere text-slate-900 group-hover:text-brand-700">
            {campaign.title}
          </h3>
          <p className="mt-1 line-clamp-3 text-sm wrap-anywhere text-slate-600">{campaign.description}</p>
          <div className="mt-auto space-y-2 pt-4">
            <div className="flex justify-between gap-2 text-sm">
              <span className="font-medium text-slate-800">Goal: {campaign.goal} attendees</span>
              <span className="text-slate-600">{campaign.committedCount} committed</span>
            </div>
            <ProgressBar
              value={campaign.committedCount}
              max={campaign.goal}
              label={`${campaign.title} progress`}
            />
            {campaign.placesLeft && (
              <p className="text-xs font-semibold text-brand-700">{campaign.placesLeft}</p>
            )}
            <p className="text-xs text-slate-600">
              {campaign.when}
              {campaign.where && <span className="block truncate">{campaign.where}</span>}
            </p>
          </div>
        </div>
      </Link>
      {isAdmin && (
        <div className="mx-5 border-t border-slate-100 pt-3 pb-5">
          <ApprovalButtons
            campaignId={campaign.id}
            approvalStatus={campaign.approvalStatus}
            rejectable={campaign.rejectable}
            campaignTitle={campaign.title}
          />
        </div>
      )}
    </article>
  );
}
