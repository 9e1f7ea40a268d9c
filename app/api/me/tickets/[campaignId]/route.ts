import { getViewer } from "@/lib/access/viewer";
import { handle } from "@/lib/http";
import { ticketForViewer } from "@/lib/tickets/queries";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ campaignId: string }> };

/**
 * GET: the signed-in viewer's own door ticket at one event (issue 36), for the event page, whose
 * copies are shared and cached and so never carry a ticket: its QR code (a PNG data: URL), its short
 * code and whether it is void. Anyone else — a visitor, the organizer, another member — gets
 * `{ ticket: null }`. Per person, so `private, no-store`.
 */
export const GET = handle(async (_req: Request, { params }: Params) => {
  const { campaignId } = await params;
  const ticket = await ticketForViewer(await getViewer(), campaignId);
  return Response.json({ ticket }, { headers: { "cache-control": "private, no-store", vary: "Cookie" } });
});
