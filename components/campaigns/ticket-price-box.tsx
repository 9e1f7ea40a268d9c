import { Card } from "@/components/ui/card";
import type { CampaignView } from "@/lib/campaigns/queries";
import { formatCents } from "@/lib/format";
import { isCrowdfund } from "@/lib/campaigns/lifecycle";
import { CROWDFUND_MIN_CENTS } from "@/lib/campaigns/lifecycle";

export function TicketPriceBox({ campaign }: { campaign: CampaignView }) {
  if (isCrowdfund(campaign)) {
    return (
      <Card>
        <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Your pledge</h2>
        <p className="mt-1 text-3xl font-bold text-slate-900">From {formatCents(CROWDFUND_MIN_CENTS)}</p>
        <p className="mt-2 text-sm text-slate-600">
          {`Pledge any amount with a saved card. You'll only be charged your pledge if the ${formatCents(campaign.goal * 100)} goal is met by the deadline. Otherwise nobody pays.`}
        </p>
        {campaign.refundBonusPercentage > 0 && (
          <p className="mt-2 text-sm text-slate-600">
            Backers receive {campaign.refundBonusPercentage}% back if the goal is not met.
          </p>
        )}
      </Card>
    );
  }
  const free = campaign.ticketPriceCents === 0;
  return (
    <Card>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Ticket price</h2>
      <p className={`mt-1 text-3xl font-bold ${free ? "text-emerald-600" : "text-slate-900"}`}>
        {free ? "FREE" : formatCents(campaign.ticketPriceCents)}
      </p>
      <p className="mt-2 text-sm text-slate-600">
        {free
          ? "This event is free. Commit to show you'll be there if enough people join."
          : `You'll only be charged ${formatCents(campaign.ticketPriceCents)} if the minimum of ${campaign.goal} attendees is met by the deadline. Otherwise nobody pays.`}
      </p>
      {campaign.refundBonusPercentage > 0 && (
        <p className="mt-2 text-sm text-slate-600">
          Backers receive {campaign.refundBonusPercentage}% back if the goal is not met.
        </p>
      )}
    </Card>
  );
}
