import { Card } from "@/components/ui/card";
import type { CampaignView } from "@/lib/campaigns/queries";
import { formatCents } from "@/lib/format";
import { CROWDFUND_MIN_CENTS, isCrowdfund, phaseOf } from "@/lib/events/lifecycle";
import { depositRules, depositText, moneySentence } from "@/lib/events/money-sentences";
import { formatDayInZone, formatInZone } from "@/lib/campaigns/event-time";
import { REFUND_BONUS_TEXTS } from "@/lib/campaigns/texts";

/**
 * The ticket price box (SPEC §2: FREE when 0, otherwise a note that payment happens only if the
 * minimum is met). The note is the event's money sentence (issue 34, lib/events/money-sentences):
 * charged only if the goal is met, at the moment it is (and the go-ahead when offered) while the
 * event collects; what happened once it is decided.
 */
export function TicketPriceBox({ campaign, now }: { campaign: CampaignView; now: number }) {
  const phase = phaseOf(campaign, new Date(now));
  const crowdfund = isCrowdfund(campaign);
  const free = !crowdfund && campaign.ticketPriceCents === 0;
  // issue 36: a show-up deposit is its own line under the price (FREE plus a deposit line)
  const deposit = depositText(campaign);
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
      {deposit && (
        <p className="mt-1 font-semibold text-slate-900" data-testid="price-deposit">
          + {deposit}
        </p>
      )}
      <p className="mt-2 text-sm text-slate-600">{priceNote(campaign, now)}</p>
      {deposit && phase !== "cancelled" && phase !== "expired" && (
        <p className="mt-2 text-sm text-slate-600">{depositRules(campaign)}</p>
      )}
      {/* issue 31: no money moves for the bonus: it is said to be the organizer's own promise */}
      {campaign.refundBonusPercentage > 0 && (phase === "collecting" || phase === "ended") && (
        <p className="mt-2 text-sm text-slate-600">
          {REFUND_BONUS_TEXTS.page(campaign.refundBonusPercentage)}
        </p>
      )}
    </Card>
  );
}

function priceNote(c: CampaignView, now: number): string {
  return moneySentence(c, new Date(now), {
    deadline: formatInZone(c.deadline, c.timeZone),
    chargedOn: c.chargedAt ? formatDayInZone(c.chargedAt, c.timeZone) : undefined,
  });
}
