"use client";

import { Modal } from "@/components/ui/modal";
import { Button } from "@/components/ui/button";
import type { CreateCampaignInput } from "@/lib/campaigns/schema";
import { formatEventRange, formatInZone } from "@/lib/campaigns/event-time";
import { isCrowdfund } from "@/lib/events/lifecycle";
import { goAheadFrom } from "@/lib/campaigns/thresholds";
import { graceText } from "@/lib/events/money-sentences";
import { formatCents, plural } from "@/lib/format";
import { PROCESSING_FEE, ticketsAfterFees, type PlatformFeeTerms } from "@/lib/payments/fees";
import { isPaidEvent } from "@/lib/events/lifecycle";
import { PayoutsSetupNotice } from "@/components/payouts/payouts-setup-notice";

/**
 * "Review before publishing" (issue 16 item 5): the event as it will be published — title, date and
 * place, goal, price, capacity, conditions, the go-ahead, the cover, and what the organizer
 * collects at the goal after fees (issue 34 item 6). "Create Event" here publishes.
 */
export function ReviewDialog({
  event,
  fees,
  cover,
  busy,
  onConfirm,
  onClose,
}: {
  event: CreateCampaignInput;
  /** the platform's fee terms the event will be created with (the server's settings) */
  fees: PlatformFeeTerms;
  /** the chosen cover's file name, uploaded once the event exists; null for none */
  cover: string | null;
  busy: boolean;
  onConfirm: () => void;
  onClose: () => void;
}) {
  const crowdfund = isCrowdfund(event);
  const rows: [string, string][] = [
    ["Title", event.title],
    [
      "When",
      event.startsAt
        ? formatEventRange(event.startsAt, event.endsAt, event.timeZone)
        : "Date to be announced",
    ],
    ["Where", placeSummary(event)],
    ["Deadline", formatInZone(event.deadline, event.timeZone)],
    [
      "Goal",
      crowdfund ? `${formatCents(event.goal * 100)} raised` : plural(event.goal, "attendee", "attendees"),
    ],
    [
      crowdfund ? "Pledges" : "Price",
      crowdfund
        ? "Any amount from $1"
        : event.ticketPriceCents === 0
          ? "Free"
          : `${formatCents(event.ticketPriceCents)} per person`,
    ],
    ...(crowdfund
      ? []
      : ([
          // issue 36: the show-up deposit, as backers are told it (lib/events/money-sentences)
          [
            "Show-up deposit",
            event.depositCents > 0
              ? `${formatCents(event.depositCents)} per person, refunded at check-in; kept by no-shows ${graceText(event.depositGraceHours)} after the end`
              : "None",
          ],
          [
            "Capacity",
            event.capacity ? `${plural(event.capacity, "place", "places")}, then a waitlist` : "No limit",
          ],
          [
            "Conditions",
            "Backers may say “only count me if at least N people are in”; they count once N are in, and only those counted pay.",
          ],
          [
            "Go-ahead",
            event.earlyGoAhead
              ? `Only at the goal, or earlier if you choose: from ${plural(goAheadFrom(event), "person", "people")} (80% of the goal)`
              : "Only when the goal is reached",
          ],
        ] as [string, string][])),
    ["Cover", cover ?? "None (a colored placeholder; you can add one later)"],
    ["At the goal you collect", collected(event, fees)],
  ];
  return (
    <Modal title="Review your event" onClose={onClose} dismissible={!busy}>
      <p className="text-sm text-slate-600">
        Check the details before publishing. After the first commitment the goal, the price and the type
        cannot change.
      </p>
      <dl className="mt-4 divide-y divide-slate-100 rounded-lg border border-slate-200">
        {rows.map(([label, value]) => (
          <div key={label} className="grid grid-cols-[8.5rem_1fr] gap-3 px-3 py-2 text-sm">
            <dt className="text-slate-500">{label}</dt>
            <dd className="min-w-0 wrap-anywhere font-medium text-slate-900">{value}</dd>
          </div>
        ))}
      </dl>
      {isPaidEvent(event) && <PayoutsSetupNotice className="mt-4" />}
      <div className="mt-6 flex flex-col-reverse gap-3 sm:flex-row sm:justify-end">
        <Button variant="secondary" onClick={onClose} disabled={busy}>
          Keep editing
        </Button>
        <Button onClick={onConfirm} disabled={busy}>
          {busy ? "Creating..." : "Create Event"}
        </Button>
      </div>
    </Modal>
  );
}

function placeSummary(e: CreateCampaignInput): string {
  const parts = [e.venue, e.address].filter(Boolean).join(", ");
  const online = e.onlineUrl ? `Online: ${e.onlineUrl}` : "";
  const where = [parts, online].filter(Boolean).join(" · ") || "Not given";
  if (!e.addressPrivate) return where;
  return `${where} (the address${e.onlineUrl ? " and link" : ""} only for attendees${e.area ? `; others see ${e.area}` : ""})`;
}

const dollars = (cents: number) => `$${Math.floor(cents / 100).toLocaleString("en-US")}`;

/** "About $376 of $400 after fees (40 attendees × $10.00; …)" — the product's fee model (lib/payments/fees). */
function collected(e: CreateCampaignInput, terms: PlatformFeeTerms): string {
  if (isCrowdfund(e)) return `At least ${formatCents(e.goal * 100)}, paid to your payment handle`;
  if (e.ticketPriceCents === 0 && e.depositCents > 0)
    return "No ticket money: the deposits of people who do not show come to you, less the platform fee";
  if (e.ticketPriceCents === 0) return "Nothing: the event is free";
  const { grossCents, netCents } = ticketsAfterFees(e.goal, e.ticketPriceCents, terms);
  const platform =
    terms.bps || terms.fixedCents
      ? ` and the platform's ${terms.bps / 100}%${terms.fixedCents ? ` + ${terms.fixedCents}¢` : ""}`
      : "";
  return `About ${dollars(netCents)} of ${formatCents(grossCents)} after fees (${plural(e.goal, "attendee", "attendees")} × ${formatCents(e.ticketPriceCents)}; card processing ${PROCESSING_FEE.bps / 100}% + ${PROCESSING_FEE.fixedCents}¢ per ticket${platform}).`;
}
