"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useState, useTransition } from "react";
import { Badge } from "@/components/ui/badge";
import { Modal } from "@/components/ui/modal";
import { LoadMore } from "@/components/ui/load-more";
import { formatCents, formatDate, formatDateTime, plural } from "@/lib/format";
import type { PublicCommitment } from "@/lib/pledges/queries";
import { seatsPriceText } from "@/lib/events/money-sentences";

const LOAD_FAILED = "Could not load more commitments. Please try again.";

function amountText(c: PublicCommitment, crowdfund: boolean) {
  if (crowdfund) return formatCents(c.amountCents);
  // issue 37: a paid group's row says its one payment ("3 people × $20.00 = $60.00")
  if (c.amountCents > 0) return seatsPriceText(c.amountCents, c.seats);
  // issue 37: a group's row counts its people
  return plural(c.seats, "attendee", "attendees");
}

/**
 * Commitments, newest first, with a details modal per commitment (SPEC §2). The page sends the
 * newest few; "Show more" asks the server for the next ones (privacy applied there, as on the page).
 */
export function CommitmentsList({
  campaignId,
  items: first,
  total: firstTotal,
  crowdfund,
}: {
  campaignId: string;
  items: PublicCommitment[];
  total: number;
  crowdfund: boolean;
}) {
  const { loadMoreCommitmentsAction } = useServerActions();
  const [open, setOpen] = useState<PublicCommitment | null>(null);
  const [more, setMore] = useState<PublicCommitment[]>([]);
  const [total, setTotal] = useState(firstTotal);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const items = more.length ? [...first, ...more] : first;
  const remaining = Math.max(0, total - items.length);

  function loadMore() {
    setError(null);
    startTransition(async () => {
      try {
        const result = await loadMoreCommitmentsAction({ campaignId, offset: items.length });
        if (!result.ok) return setError(result.error);
        setTotal(result.data.total);
        // Commitments arriving meanwhile shift older ones down a page: never list one twice.
        const seen = new Set(items.map((c) => c.key));
        setMore((prev) => [...prev, ...result.data.items.filter((c) => !seen.has(c.key))]);
      } catch {
        setError(LOAD_FAILED);
      }
    });
  }
  return (
    <section
      aria-labelledby="commitments-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <div className="flex items-baseline justify-between gap-3">
        <h2 id="commitments-heading" className="text-lg font-bold text-slate-900">
          Commitments
        </h2>
        <span className="text-sm text-slate-500">{total}</span>
      </div>
      {items.length > 0 && (
        // SPEC's badges, said once in plain words (issue 17: one word per concept, explained where ambiguous)
        <p className="mt-1 text-xs text-slate-500">
          PENDING: committed, not yet confirmed · VERIFIED: paid, or confirmed for a free event
        </p>
      )}
      {items.length === 0 ? (
        <p className="mt-3 text-sm text-slate-600">No commitments yet. Be the first to commit!</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {items.map((c) => (
            <li key={c.key}>
              <button
                type="button"
                onClick={() => setOpen(c)}
                className="flex w-full items-center gap-3 rounded-lg px-2 py-3 text-left hover:bg-slate-50 focus-visible:bg-slate-50"
              >
                {/* The accessible name starts with what the button does, then repeats the visible text. */}
                <span className="sr-only">Commitment details: </span>
                <span
                  aria-hidden
                  className={`flex h-9 w-9 shrink-0 items-center justify-center rounded-full text-sm font-bold ${c.anonymous ? "bg-slate-200 text-slate-600" : "bg-brand-100 text-brand-700"}`}
                >
                  {c.anonymous ? "?" : c.label.charAt(0).toUpperCase()}
                </span>
                <span className="w-0 min-w-0 flex-1">
                  <span className="block font-medium wrap-anywhere text-slate-900">
                    {c.label}
                    {c.isViewer && <span className="ml-1 text-sm font-normal text-slate-500">(you)</span>}
                    {/* a space, not a margin: wrapped to its own line, "+ 2 guests" starts flush */}
                    {c.seats > 1 && " "}
                    {c.seats > 1 && (
                      <span
                        className="text-sm font-normal whitespace-nowrap text-slate-600"
                        data-testid="group-seats"
                      >
                        + {c.seats - 1 === 1 ? "1 guest" : `${c.seats - 1} guests`}
                      </span>
                    )}
                  </span>
                  <span className="block text-xs text-slate-500" suppressHydrationWarning>
                    {formatDate(c.createdAt)}
                    <span className="sm:hidden"> · {amountText(c, crowdfund)}</span>
                  </span>
                </span>
                <span className="hidden text-sm font-semibold text-slate-700 sm:inline">
                  {amountText(c, crowdfund)}
                </span>
                <Badge tone={c.verified ? "green" : "amber"}>{c.verified ? "VERIFIED" : "PENDING"}</Badge>
              </button>
            </li>
          ))}
        </ul>
      )}
      {remaining > 0 && (
        <LoadMore
          label={`Show more (${remaining} more)`}
          pending={pending}
          error={error}
          onClick={loadMore}
          className="text-sm font-semibold text-brand-700 hover:underline"
        />
      )}

      {open && (
        <Modal title="Commitment Details" onClose={() => setOpen(null)} size="sm">
          <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-3 text-sm">
            <dt className="text-slate-500">Amount</dt>
            <dd className="font-semibold text-slate-900">{amountText(open, crowdfund)}</dd>
            <dt className="text-slate-500">Contributor</dt>
            <dd className="wrap-anywhere text-slate-900">{open.label}</dd>
            <dt className="text-slate-500">Status</dt>
            <dd>
              <Badge tone={open.verified ? "green" : "amber"}>{open.verified ? "VERIFIED" : "PENDING"}</Badge>
            </dd>
            <dt className="text-slate-500">Date</dt>
            <dd className="text-slate-900">{formatDateTime(open.createdAt)}</dd>
            <dt className="text-slate-500">Payment method</dt>
            <dd className="text-slate-900">{open.paymentMethod}</dd>
          </dl>
        </Modal>
      )}
    </section>
  );
}
