import { getViewer } from "@/lib/access/viewer";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { buildIcs, type IcsStatus } from "@/lib/campaigns/ics";
import { calendarEventOf, getShareInfo } from "@/lib/sharing/queries";

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
  const entry = calendarEventOf(info);
  if (!entry) throw new AppError("NOT_FOUND", "This event's date is to be announced.");
  // someone on the waitlist (issue 20) gets a tentative entry that says where they stand
  const ics = buildIcs({
    ...entry,
    status: info.waitlistPosition ? "TENTATIVE" : (STATUS[info.status] ?? "TENTATIVE"),
  });
  return new Response(ics, {
    headers: {
      "content-type": "text/calendar; charset=utf-8",
      "content-disposition": `attachment; filename="pactnexus-${info.id}.ics"`,
      "cache-control": "private, no-store",
    },
  });
});
