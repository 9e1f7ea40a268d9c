import { getViewer } from "@/lib/access/viewer";
import { chargeOutstanding } from "@/lib/charging/service";
import { chargeAttendeesSchema } from "@/lib/charging/schema";
import { handle, parseJson } from "@/lib/http";

export const dynamic = "force-dynamic";

/** SPEC §7 manual charge: creator or admin only (enforced in lib/charging). */
export const POST = handle(async (req: Request) => {
  const { campaignId } = await parseJson(req, chargeAttendeesSchema);
  const viewer = await getViewer();
  return Response.json(await chargeOutstanding(campaignId, viewer));
});
