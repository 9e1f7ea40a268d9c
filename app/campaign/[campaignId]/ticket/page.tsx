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
          person at the door. Print them, or send each guest theirs.
        </p>
      )}
      <div className="space-y-6">
        {[
          { ticket, label: null as string | null },
          ...guests.map((g, i) => ({ ticket: g, label: `Guest ${i + 1}` })),
        ].map(({ ticket: t, label }) => (
          <article
            key={t.code}
            className="rounded-2xl border-2 border-slate-300 bg-white p-6 print:break-after-page print:border-4"
            data-testid={label ? "guest-ticket" : "own-ticket"}
          >
            <p className="text-sm font-bold uppercase tracking-[0.2em] text-brand-700">
              PactNexus ticket{label ? ` · ${label}` : ""}
            </p>
            <h1 className="mt-2 wrap-anywhere text-2xl font-extrabold text-slate-900">{info.title}</h1>
            <p className="mt-1 text-slate-700">
              {info.startsAt
                ? formatEventRange(info.startsAt, info.endsAt, info.timeZone)
                : "Date to be announced"}
              {placeLine(info.publicPlace) ? ` · ${placeLine(info.publicPlace)}` : ""}
            </p>
            <div className="mt-4">
              <TicketCard ticket={t} size={240} />
            </div>
          </article>
        ))}
      </div>
    </div>
  );
}
