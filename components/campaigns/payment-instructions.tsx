import { isPaidEvent } from "@/lib/events/lifecycle";
import { Card } from "@/components/ui/card";
import type { CampaignView } from "@/lib/campaigns/queries";
import { PAYMENT_TYPE_LABELS, paymentHandle } from "@/lib/campaigns/display";

/** The organizer's payment handle (venmo with an @ prefix), shown when one exists on a paid event or crowdfund (DESIGN "pact types": their contact). */
export function PaymentInstructions({ campaign }: { campaign: CampaignView }) {
  const handle = paymentHandle(campaign.paymentType, campaign.paymentMethod);
  if (!handle || !campaign.paymentType || !isPaidEvent(campaign)) return null;
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
