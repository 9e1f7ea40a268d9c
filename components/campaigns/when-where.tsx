import type { CampaignView } from "@/lib/campaigns/queries";
import { hasPlace } from "@/lib/campaigns/place";
import { EventTime } from "@/components/time/event-time";

/**
 * When and where (issue 16): the start (and end) in the event's zone, or "Date to be announced";
 * the venue and the address — or, when the address is kept for attendees and this viewer is not
 * one, the public area and a line saying so. Nothing withheld is in the props.
 */
export function WhenWhere({ campaign }: { campaign: CampaignView }) {
  const { place } = campaign;
  return (
    <dl className="grid gap-4 rounded-xl border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-2 sm:p-5">
      <div className="min-w-0">
        <dt className="text-sm font-semibold uppercase tracking-wide text-slate-500">When</dt>
        <dd className="mt-1 text-slate-900">
          {campaign.startsAt ? (
            <EventTime at={campaign.startsAt} end={campaign.endsAt} zone={campaign.timeZone} />
          ) : (
            "Date to be announced"
          )}
        </dd>
      </div>
      <div className="min-w-0">
        <dt className="text-sm font-semibold uppercase tracking-wide text-slate-500">Where</dt>
        <dd className="mt-1 wrap-anywhere text-slate-900">
          {!hasPlace(place) && "Place to be announced"}
          {place.venue && <span className="block font-medium">{place.venue}</span>}
          {place.address && <span className="block">{place.address}</span>}
          {place.withheld && (
            <span className="block text-sm text-slate-600">
              {place.area ? `${place.area} · ` : ""}The exact {place.venue ? "address" : "place"} is shared
              with attendees once they commit.
            </span>
          )}
          {place.onlineUrl && (
            <a
              href={place.onlineUrl}
              rel="noopener noreferrer nofollow"
              target="_blank"
              className="block truncate font-medium text-brand-700 underline"
            >
              {place.onlineUrl}
            </a>
          )}
        </dd>
      </div>
    </dl>
  );
}
