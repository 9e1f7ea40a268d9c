"use client";

import { useEffect, useState } from "react";
import type { ShownTicket } from "@/lib/tickets/queries";
import { TicketCard, ticketPrintHref } from "@/components/tickets/ticket-card";

/**
 * The holder's ticket on the event page (issue 36). The page's copies are shared by every member
 * and cached, so the ticket is never in them: this asks the holder-only route after the page loads
 * and shows nothing for anyone without a ticket (or when the request fails: My commitments has it).
 */
export function EventTicket({ campaignId }: { campaignId: string }) {
  const [ticket, setTicket] = useState<ShownTicket | null>(null);
  useEffect(() => {
    const ctl = new AbortController();
    fetch(`/api/me/tickets/${campaignId}`, { signal: ctl.signal, cache: "no-store" })
      .then((r) => (r.ok ? (r.json() as Promise<{ ticket: ShownTicket | null }>) : { ticket: null }))
      .then((body) => setTicket(body.ticket))
      .catch(() => {});
    return () => ctl.abort();
  }, [campaignId]);
  if (!ticket) return null;
  return (
    <section aria-label="Your ticket">
      <TicketCard ticket={ticket} printHref={ticketPrintHref(campaignId)} />
    </section>
  );
}
