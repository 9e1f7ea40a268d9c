import type { Metadata } from "next";
import Link from "next/link";
import { notFound, redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import { formatEventRange } from "@/lib/campaigns/event-time";
import { placeLine } from "@/lib/campaigns/place";
import { getShareInfo } from "@/lib/sharing/queries";
import { guestTicketsAt, ticketForViewer } from "@/lib/tickets/queries";
import { PrintButton } from "@/components/sharing/print-button";
import { TicketCard } from "@/components/tickets/ticket-card";

type Props = { params: Promise<{ campaignId: string }> };

export const metadata: Metadata = { title: "Your ticket", robots: { index: false } };

/**
 * The printable ticket (issue 36): the holder's own only, rendered per request (never cached). A
 * visitor is asked to sign in first; anyone without a ticket at this event finds nothing here.
 */
export default async function TicketPage({ params }: Props) {
  const { campaignId } = await params;
  const viewer = await getViewer();
  if (!viewer) redirect(`/profile?next=${encodeURIComponent(`/campaign/${campaignId}/ticket`)}`);
  const [ticket, info, guests] = await Promise.all([
    ticketForViewer(viewer, campaignId),
    getShareInfo(campaignId, viewer),
    guestTicketsAt(viewer.id, campaignId),
  ]);
  if (!ticket || !info) notFound();
  return (
    <div className="mx-auto max-w-xl px-4 py-6 print:max-w-none print:p-0">
      <style>{`@media print { body > header, body > footer, body .fixed { display: none !important; } @page { margin: 14mm; } }`}</style>
      <div className="mb-4 flex flex-wrap items-center justify-between gap-3 print:hidden">
        <Link href={`/campaign/${info.id}`} className="text-sm text-brand-700 hover:underline">
          ← Back to the event
        </Link>
        {!ticket.void && <PrintButton label={guests.length > 0 ? "Print tickets" : "Print ticket"} />}
      </div>
      {guests.length > 0 && (
        <p className="mb-4 text-sm text-slate-700 print:hidden">
          Your ticket and your {guests.length === 1 ? "guest's" : `${guests.length} guests'`}: each admits one
          person at the door. Print them and give each guest theirs.
        </p>
      )}
      <div className="space-y-6">
        {[
          { ticket, label: null as string | null },
          ...guests.map((g, i) => ({ ticket: g, label: `Guest ${i + 1}` })),
        ].map(({ ticket: t, label }) => (
          <article
            key={t.code}
            // one ticket a page in print: each guest's starts a new page (no blank page after the last)
            className={`rounded-2xl border-2 border-slate-300 bg-white p-6 print:border-4 ${label ? "print:break-before-page" : ""}`}
            data-testid={label ? "guest-ticket" : "own-ticket"}
          >
            <div className="flex flex-wrap items-center justify-between gap-x-3 gap-y-1">
              <p className="text-sm font-bold uppercase tracking-[0.2em] text-brand-700">PactNexus ticket</p>
              {label && (
                <p className="rounded-full bg-brand-50 px-3 py-0.5 text-sm font-semibold text-brand-900 ring-1 ring-brand-100">
                  {label}
                </p>
              )}
            </div>
            {/* one h1 on the page: the guests' tickets repeat the title as h2 */}
            {label ? (
              <h2 className="mt-2 wrap-anywhere text-2xl font-extrabold text-slate-900">{info.title}</h2>
            ) : (
              <h1 className="mt-2 wrap-anywhere text-2xl font-extrabold text-slate-900">{info.title}</h1>
            )}
            <p className="mt-1 text-slate-700">
              {info.startsAt
                ? formatEventRange(info.startsAt, info.endsAt, info.timeZone)
                : "Date to be announced"}
              {placeLine(info.publicPlace) ? ` · ${placeLine(info.publicPlace)}` : ""}
            </p>
            <div className="mt-4">
              <TicketCard ticket={t} size={240} label={label ? "Guest ticket" : undefined} />
            </div>
          </article>
        ))}
      </div>
    </div>
  );
}
