import { getViewer } from "@/lib/access/viewer";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { buildIcs, type IcsStatus } from "@/lib/campaigns/ics";
import { getShareInfo } from "@/lib/sharing/queries";
import { placeLine } from "@/lib/campaigns/place";

export const dynamic = "force-dynamic";

const STATUS: Record<string, IcsStatus> = {
  charged: "CONFIRMED",
  expired: "CANCELLED",
  cancelled: "CANCELLED",
};

/** Add-to-calendar: the event as an .ics file, with the same UID as the emailed calendar entries. */
export const GET = handle(async (_req: Request, { params }: { params: Promise<{ campaignId: string }> }) => {
  const { campaignId } = await params;
  const info = await getShareInfo(campaignId, await getViewer());
  if (!info) throw new AppError("NOT_FOUND", "Campaign not found.");
  // No calendar entry until the event has a date (issue 16): the page offers none either.
  if (!info.startsAt) throw new AppError("NOT_FOUND", "This event's date is to be announced.");
  // someone on the waitlist (issue 20) gets a tentative entry that says where they stand
  const waiting = info.waitlistPosition;
  const ics = buildIcs({
    campaignId: info.id,
    title: waiting ? `Waitlist #${waiting}: ${info.title}` : info.title,
    description: `${waiting ? `You're #${waiting} on the waitlist. This entry becomes yours only if a place opens for you before the event starts.\n\n` : ""}${info.description}\n\n${info.url}`,
    url: info.url,
    start: info.startsAt,
    end: info.endsAt,
    timeZone: info.timeZone,
    location: placeLine(info.place),
    sequence: info.calendarSequence,
    status: waiting ? "TENTATIVE" : (STATUS[info.status] ?? "TENTATIVE"),
  });
  return new Response(ics, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": `attachment; filename="pactnexus-${info.id}.ics"`,
      "cache-control": "private, no-store",
    },
  });
});
