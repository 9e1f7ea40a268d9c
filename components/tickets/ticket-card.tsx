import Link from "next/link";
import type { ShownTicket } from "@/lib/tickets/queries";

/**
 * A door ticket (issue 36): its QR code and short code, or — void — why it no longer admits. Shared by
 * My commitments (rendered per request), the event page (fetched by its holder's browser) and the
 * print view. The QR image is drawn on the server (lib/email/ticket-image.ts): no QR code in the
 * page's JavaScript. Whether it is void comes from lib/tickets/void.ts.
 */
export function TicketCard({
  ticket,
  printHref,
  size = 176,
  label = "Your ticket",
}: {
  ticket: ShownTicket;
  printHref?: string;
  size?: number;
  /** what the ticket is called (issue 37: a guest seat's, printed by its holder, is "Guest ticket") */
  label?: string;
}) {
  const v = ticket.void;
  return (
    <div
      className={`@container rounded-xl border p-4 ${v ? "border-slate-300 bg-slate-50" : "border-slate-200 bg-white"}`}
      data-testid="ticket"
      data-void={v ? v.reason : undefined}
    >
      <p className="text-xs font-bold uppercase tracking-wide text-slate-600">
        {v ? "Ticket (void)" : label}
      </p>
      <div className="mt-2 flex flex-col items-center gap-3 @sm:flex-row @sm:items-center">
        {/* eslint-disable-next-line @next/next/no-img-element -- a per-person data: URL, never optimised or cached */}
        <img
          src={ticket.qr}
          alt={`Ticket QR code, code ${ticket.code}`}
          width={size}
          height={size}
          className={`shrink-0 rounded-md border border-slate-200 bg-white ${v ? "opacity-30 grayscale" : ""}`}
        />
        <div className="min-w-0 text-center @sm:text-left">
          <p className="text-sm text-slate-600">Code at the door</p>
          <p
            className={`font-mono text-2xl font-bold tracking-widest whitespace-nowrap ${v ? "text-slate-500 line-through" : "text-slate-900"}`}
            data-testid="ticket-code"
          >
            {ticket.code}
          </p>
          {v ? (
            <p className="mt-1 text-sm font-medium text-red-700">{v.text}</p>
          ) : (
            <p className="mt-1 text-sm text-slate-600">Show the QR code at the door, or give the code.</p>
          )}
          {printHref && !v && (
            <Link
              href={printHref}
              prefetch={false}
              className="mt-2 inline-block text-sm font-semibold text-brand-700 underline print:hidden"
            >
              Print ticket
            </Link>
          )}
        </div>
      </div>
    </div>
  );
}

export const ticketPrintHref = (campaignId: string) => `/campaign/${campaignId}/ticket`;
