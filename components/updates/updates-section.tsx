import type { Viewer } from "@/lib/access/viewer";
import { eventUpdates } from "@/components/campaigns/event-data";
import { formatDateTime } from "@/lib/format";
import { UpdateForm } from "@/components/campaigns/lazy-tools";

/** Organizer updates on the event page: the list for everyone, the form for the organizer. Renders nothing when empty for non-organizers. */
export async function UpdatesSection({
  campaign,
  viewer,
  canPostNow = true,
}: {
  campaign: { id: string };
  viewer: Viewer | null;
  /** the event's state offers Post update (lib/events/actions.ts); who may post is view.canPost */
  canPostNow?: boolean;
}) {
  const found = await eventUpdates(campaign.id, viewer);
  const view = found && { ...found, canPost: found.canPost && canPostNow };
  if (!view || (view.updates.length === 0 && !view.canPost)) return null;
  return (
    <section
      aria-labelledby="updates-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="updates-heading" className="text-lg font-bold text-slate-900">
        Updates from the organizer
      </h2>
      {view.canPost && (
        <div className="mt-3">
          <UpdateForm
            campaignId={campaign.id}
            remainingToday={view.remainingToday}
            committers={view.committers}
          />
        </div>
      )}
      {view.updates.length === 0 ? (
        <p className="mt-3 text-sm text-slate-500">No updates yet.</p>
      ) : (
        <ol className="mt-4 space-y-4">
          {view.updates.map((u) => (
            <li key={u.id} className="border-l-4 border-brand-200 pl-4">
              <time dateTime={u.createdAt.toISOString()} className="text-xs font-medium text-slate-500">
                {formatDateTime(u.createdAt)}
              </time>
              <p className="mt-1 whitespace-pre-line wrap-anywhere text-slate-800">{u.text}</p>
            </li>
          ))}
        </ol>
      )}
    </section>
  );
}
