import Link from "next/link";
import type { Viewer } from "@/lib/access/viewer";
import { paceEstimate } from "@/lib/sharing/pace";
import { calendarEventOf, shareProgress } from "@/lib/sharing/queries";
import { calendarLinks } from "@/lib/campaigns/ics";
import { eventShareInfo } from "@/components/campaigns/event-data";
import { Card } from "@/components/ui/card";
import { ShareButton } from "@/components/sharing/share-button";
import type { EventAction } from "@/lib/events/actions";

const panelLink =
  "rounded-lg px-3 py-2 text-center font-semibold text-brand-700 ring-1 ring-inset ring-brand-100 hover:bg-brand-50";
const webLink = "font-medium text-brand-700 underline-offset-2 hover:underline";

/** Event page: pace estimate, share, add to calendar (.ics, Google Calendar, Outlook), printable flyer. */
export async function SharePanel({
  campaign,
  viewer,
  now,
  actions,
}: {
  campaign: { id: string };
  viewer: Viewer | null;
  now?: number | Date;
  /** what the event's state offers (lib/events/actions.ts): nothing to spread on a called-off event */
  actions: Record<EventAction, boolean>;
}) {
  if (!actions.share && !actions.calendar && !actions.flyer) return null;
  const info = await eventShareInfo(campaign.id, viewer);
  if (!info) return null;
  const pace = paceEstimate(
    {
      status: info.status,
      goal: info.goal,
      progress: shareProgress(info),
      createdAt: info.createdAt,
      deadline: info.deadline,
      crowdfund: info.crowdfund,
      commitments: info.pledgeCount,
    },
    now === undefined ? new Date() : new Date(now),
  );
  const entry = calendarEventOf(info);
  const links = entry && calendarLinks(entry);
  return (
    <Card>
      <h2 className="text-sm font-semibold uppercase tracking-wide text-slate-500">Spread the word</h2>
      {pace && (
        <p
          className={`mt-2 text-sm font-medium ${pace.willTip === null ? "text-slate-600" : pace.willTip ? "text-emerald-700" : "text-amber-800"}`}
          data-testid="pace"
        >
          {pace.text}
        </p>
      )}
      {actions.share && <ShareButton url={info.url} title={info.title} className="mt-3" />}
      <div
        className={`mt-3 grid gap-2 text-sm ${entry && actions.calendar && actions.flyer ? "grid-cols-2" : "grid-cols-1"}`}
      >
        {/* no calendar entry until there is a date (issue 16) */}
        {entry && actions.calendar && (
          <a href={`/campaign/${info.id}/calendar.ics`} download className={panelLink}>
            Add to calendar
          </a>
        )}
        {actions.flyer && (
          <Link href={`/campaign/${info.id}/flyer`} prefetch={false} className={panelLink}>
            Printable flyer
          </Link>
        )}
      </div>
      {links && actions.calendar && (
        // issue 34 item 7: the same entry as the .ics (calendarEventOf), for people whose calendar is on the web
        <p className="mt-2 flex flex-wrap justify-center gap-x-4 gap-y-1 text-sm">
          <a href={links.google} target="_blank" rel="noopener noreferrer" className={webLink}>
            Google Calendar
          </a>
          <a href={links.outlook} target="_blank" rel="noopener noreferrer" className={webLink}>
            Outlook
          </a>
        </p>
      )}
    </Card>
  );
}
