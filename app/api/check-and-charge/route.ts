import { getViewer } from "@/lib/access/viewer";
import { clientIp } from "@/lib/auth/client-ip";
import { checkAndCharge } from "@/lib/charging/service";
import { checkAndChargeSchema } from "@/lib/charging/schema";
import { handle, parseJson } from "@/lib/http";

export const dynamic = "force-dynamic";

/** SPEC §7: anyone may ask; the database decides. Per-pledge rows only to those who may see them (lib/charging). */
export const POST = handle(async (req: Request) => {
  const { campaignId } = await parseJson(req, checkAndChargeSchema);
  const viewer = await getViewer();
  return Response.json(await checkAndCharge(campaignId, viewer, clientIp(req.headers)));
});
