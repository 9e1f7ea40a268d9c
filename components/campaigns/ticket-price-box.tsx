import { Card } from "@/components/ui/card";
import type { CampaignView } from "@/lib/campaigns/queries";
import { formatCents } from "@/lib/format";
import { CROWDFUND_MIN_CENTS, isCrowdfund, phaseOf, type Phase } from "@/lib/events/lifecycle";
import { formatDayInZone } from "@/lib/campaigns/event-time";
import { REFUND_BONUS_TEXTS } from "@/lib/campaigns/texts";

/**
 * The ticket price box (SPEC §2: FREE when 0, otherwise a note that payment happens only if the
 * minimum is met). The note follows the phase (issue 16): "You'll only be charged … if" while the
 * event collects, what happened once it is decided.
 */
export function TicketPriceBox({ campaign, now }: { campaign: CampaignView; now: number }) {
  const phase = phaseOf(campaign, new Date(now));
  const crowdfund = isCrowdfund(campaign);
  const free = !crowdfund && campaign.ticketPriceCents === 0;
  return (
    <Card>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">
        {crowdfund ? "Your pledge" : "Ticket price"}
      </h2>
      <p className={`mt-1 text-3xl font-bold ${free ? "text-emerald-600" : "text-slate-900"}`}>
        {crowdfund
          ? `From ${formatCents(CROWDFUND_MIN_CENTS)}`
          : free
            ? "FREE"
            : formatCents(campaign.ticketPriceCents)}
      </p>
      <p className="mt-2 text-sm text-slate-600">{priceNote(campaign, phase, crowdfund, free)}</p>
      {/* issue 31: no money moves for the bonus: it is said to be the organizer's own promise */}
      {campaign.refundBonusPercentage > 0 && (phase === "collecting" || phase === "ended") && (
        <p className="mt-2 text-sm text-slate-600">
          {REFUND_BONUS_TEXTS.page(campaign.refundBonusPercentage)}
        </p>
      )}
    </Card>
  );
}

function priceNote(c: CampaignView, phase: Phase, crowdfund: boolean, free: boolean): string {
  const price = formatCents(c.ticketPriceCents);
  const on = c.chargedAt ? ` on ${formatDayInZone(c.chargedAt, c.timeZone)}` : "";
  switch (phase) {
    case "collecting":
      if (crowdfund)
        return `Pledge any amount with a saved card. You'll only be charged your pledge if the ${formatCents(c.goal * 100)} goal is met by the deadline. Otherwise nobody pays.`;
      return free
        ? "This event is free. Commit to show you'll be there if enough people join."
        : `You'll only be charged ${price} if the minimum of ${c.goal} attendees is met by the deadline. Otherwise nobody pays.`;
    case "ended":
      return "The deadline has passed; the result is being recorded.";
    case "confirmed":
      if (free) return "Free: nobody pays.";
      if (c.acceptAfterThreshold)
        return crowdfund
          ? "The goal was met. Pledges made now are charged at once."
          : `The minimum was met. Commit now and you're charged ${price} at once.`;
      return crowdfund
        ? "The goal was met: backers are being charged their pledges."
        : `The minimum was met: attendees are being charged ${price}.`;
    case "charged":
      if (free) return "Free: nobody pays.";
      return crowdfund ? `Backers were charged their pledges${on}.` : `Charged ${price} per attendee${on}.`;
    case "expired":
      return "The minimum was not met by the deadline. Nobody was charged.";
    case "cancelled":
      return "This event was cancelled. Nobody pays; anyone already charged is refunded.";
  }
}
