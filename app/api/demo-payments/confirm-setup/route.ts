import { getViewer } from "@/lib/access/viewer";
import { AppError } from "@/lib/errors";
import { handle, parseJson } from "@/lib/http";
import { confirmDemoSetupForViewer } from "@/lib/payments/service";
import { confirmDemoSetupSchema } from "@/lib/payments/schema";

export const dynamic = "force-dynamic";

/** The demo mode's stand-in for stripe.confirmSetup (same result and error shapes). */
export const POST = handle(async (req: Request) => {
  const viewer = await getViewer();
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in to commit to this event");
  const input = await parseJson(req, confirmDemoSetupSchema);
  const result = await confirmDemoSetupForViewer(viewer, input);
  if (!result.ok) return Response.json({ error: result.error }, { status: result.status });
  return Response.json({ setupIntent: result.setupIntent });
});
