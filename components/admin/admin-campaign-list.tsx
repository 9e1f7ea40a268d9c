import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ApprovalButtons } from "@/components/campaigns/approval-buttons";
import type { CampaignCard } from "@/lib/campaigns/queries";
import { formatDate } from "@/lib/format";

export function AdminCampaignList({
  title,
  campaigns,
  total,
  limit,
}: {
  title: string;
  campaigns: CampaignCard[];
  total: number;
  limit: number;
}) {
  const id = `section-${title.toLowerCase().replace(/\W+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="space-y-3">
      <h2 id={id} className="text-xl font-bold text-slate-900">
        {title} <span className="text-base font-medium text-slate-500">({total})</span>
      </h2>
      {campaigns.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-500">
          No campaigns yet.
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
          {campaigns.map((c) => (
            <li key={c.id} className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
              <div className="min-w-0">
                <div className="flex flex-wrap items-center gap-2">
                  <p className="font-semibold wrap-anywhere text-slate-900">{c.title}</p>
                  {c.isTest && <Badge tone="amber">TEST</Badge>}
                </div>
                <p className="mt-0.5 line-clamp-1 text-sm wrap-anywhere text-slate-600">{c.description}</p>
                <p className="mt-1 text-xs text-slate-500">
                  Goal: {c.goal} attendees · {c.committedCount} committed · Created {formatDate(c.createdAt)}{" "}
                  · Deadline {formatDate(c.deadline)}
                </p>
              </div>
              <div className="flex shrink-0 flex-wrap items-start gap-2">
                <ApprovalButtons
                  campaignId={c.id}
                  approvalStatus={c.approvalStatus}
                  campaignTitle={c.title}
                />
                <Link
                  href={`/campaign/${c.id}`}
                  className="rounded-lg border border-slate-300 px-3 py-1.5 text-sm font-semibold text-slate-700 hover:bg-slate-50"
                >
                  View Campaign
                </Link>
              </div>
            </li>
          ))}
        </ul>
      )}
      {total > campaigns.length && (
        <p className="text-sm text-slate-500">
          Showing the newest {limit} of {total}.
        </p>
      )}
    </section>
  );
}
