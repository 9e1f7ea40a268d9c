import { Card } from "@/components/ui/card";
import type { CampaignView } from "@/lib/campaigns/queries";
import { PAYMENT_TYPE_LABELS, paymentHandle } from "@/lib/campaigns/display";

/** Crowdfund payment instructions (venmo with an @ prefix), shown when a method exists and the price is above 0. */
export function PaymentInstructions({ campaign }: { campaign: CampaignView }) {
  const handle = paymentHandle(campaign.paymentType, campaign.paymentMethod);
  if (!handle || !campaign.paymentType || campaign.ticketPriceCents <= 0) return null;
  return (
    <Card>
      <h2 className="font-semibold text-slate-900">Payment instructions</h2>
      <p className="mt-2 text-sm text-slate-600">
        Pay the organizer via {PAYMENT_TYPE_LABELS[campaign.paymentType]}:{" "}
        <span className="font-mono font-semibold text-slate-900 break-all">{handle}</span>
      </p>
    </Card>
  );
}
