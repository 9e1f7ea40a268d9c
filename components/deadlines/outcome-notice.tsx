import { isPaidEvent } from "@/lib/events/lifecycle";
import { formatInZone } from "@/lib/campaigns/event-time";

type CampaignOutcome = {
  status: string;
  goal: number;
  committedCount: number;
  deadline: Date;
  timeZone: string;
  ticketPriceCents: number;
  depositCents: number;
  pactType?: string | null;
  cancelReason?: string | null;
};

/** What happened to an event that is over without taking place: expired at its deadline, or cancelled. */
export function OutcomeNotice({ campaign }: { campaign: CampaignOutcome }) {
  if (campaign.status === "expired") {
    return (
      <div role="status" className="rounded-xl border border-slate-300 bg-slate-50 p-4 text-slate-800">
        <p className="font-semibold">This event did not reach its goal.</p>
        <p className="mt-1 text-sm">
          The deadline passed on {formatInZone(campaign.deadline, campaign.timeZone)} with{" "}
          {campaign.committedCount} of {campaign.goal} commitments.{" "}
          {isPaidEvent(campaign)
            ? "Nobody was charged, and saved cards were released."
            : "It will not take place."}
        </p>
      </div>
    );
  }
  if (campaign.status === "cancelled") {
    return (
      <div role="status" className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-900">
        <p className="font-semibold">The organizer cancelled this event.</p>
        <p className="mt-1 text-sm">
          {isPaidEvent(campaign)
            ? "Anyone who was charged is refunded in full; nobody else will be charged."
            : "It will not take place."}
        </p>
        {campaign.cancelReason && (
          <p className="mt-2 text-sm whitespace-pre-line">
            <span className="font-semibold">The reason given:</span> {campaign.cancelReason}
          </p>
        )}
      </div>
    );
  }
  return null;
}
