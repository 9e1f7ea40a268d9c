import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { ApprovalButtons } from "@/components/campaigns/approval-buttons";
import type { AdminSection } from "@/lib/campaigns/admin";
import { eventBadge, isRejectable } from "@/lib/events/lifecycle";
import { formatCents, formatDate } from "@/lib/format";

/** One section of the admin dashboard: its events with their state and money, a page at a time. */
export function AdminCampaignList({
  id,
  title,
  section,
  pageHref,
  searching,
}: {
  id: string;
  title: string;
  section: AdminSection;
  pageHref: (page: number) => string;
  searching: boolean;
}) {
  const { rows, total, page, pageCount } = section;
  const now = new Date();
  return (
    <section id={id} aria-labelledby={`${id}-title`} className="scroll-mt-20 space-y-3">
      <h2 id={`${id}-title`} className="text-xl font-bold text-slate-900">
        {title} <span className="text-base font-medium text-slate-500">({total})</span>
      </h2>
      {rows.length === 0 ? (
        <p className="rounded-xl border border-dashed border-slate-300 bg-white p-6 text-center text-slate-500">
          {searching ? "No matching events." : "No campaigns yet."}
        </p>
      ) : (
        <ul className="divide-y divide-slate-100 rounded-xl border border-slate-200 bg-white shadow-sm">
          {rows.map((c) => {
            const badge = eventBadge(c, now);
            return (
              <li
                key={c.id}
                className="flex flex-col gap-3 p-4 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <div className="flex flex-wrap items-center gap-2">
                    <p className="font-semibold wrap-anywhere text-slate-900">{c.title}</p>
                    <Badge tone={badge.tone}>{badge.label}</Badge>
                    {c.isTest && <Badge tone="amber">TEST</Badge>}
                  </div>
                  <p className="mt-0.5 line-clamp-1 text-sm wrap-anywhere text-slate-600">{c.description}</p>
                  <p className="mt-1 text-xs text-slate-500">
                    {c.goalText}
                    {c.paid && (
                      <>
                        {" "}
                        · {formatCents(c.committedCents)} committed · {formatCents(c.collectedCents)}{" "}
                        collected
                      </>
                    )}{" "}
                    · Created {formatDate(c.createdAt)} · Deadline {formatDate(c.deadline)}
                  </p>
                </div>
                <div className="flex shrink-0 flex-wrap items-start gap-2">
                  <ApprovalButtons
                    campaignId={c.id}
                    approvalStatus={c.approvalStatus}
                    rejectable={isRejectable(c.status)}
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
            );
          })}
        </ul>
      )}
      {pageCount > 1 && (
        <nav aria-label={`${title} pages`} className="flex items-center justify-between gap-3 text-sm">
          {page > 1 ? (
            <Link href={pageHref(page - 1)} className="font-semibold text-brand-700 hover:underline">
              ← Newer
            </Link>
          ) : (
            <span />
          )}
          <span className="text-slate-500">
            Page {page} of {pageCount}
          </span>
          {page < pageCount ? (
            <Link href={pageHref(page + 1)} className="font-semibold text-brand-700 hover:underline">
              Older →
            </Link>
          ) : (
            <span />
          )}
        </nav>
      )}
    </section>
  );
}
