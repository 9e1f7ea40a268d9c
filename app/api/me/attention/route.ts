import { getViewer } from "@/lib/access/viewer";
import { handle } from "@/lib/http";
import { paymentAttention } from "@/lib/pledges/attention";

export const dynamic = "force-dynamic";

/**
 * GET: what needs the signed-in viewer's attention (issue 34 item 2), for the account bar's banner.
 * Per person, so never stored by a shared cache or the browser: `private, no-store`. It takes no
 * parameters: it answers for the session's own user only (a visitor gets an empty list).
 */
export const GET = handle(async () => {
  const payments = await paymentAttention(await getViewer());
  return Response.json({ payments }, { headers: { "cache-control": "private, no-store", vary: "Cookie" } });
});
