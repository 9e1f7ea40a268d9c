import { getViewer } from "@/lib/access/viewer";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { getPayoutsCsv } from "@/lib/payouts/queries";

export const dynamic = "force-dynamic";

/** The signed-in organizer's payouts as CSV (their own events only; 401 signed out). */
export const GET = handle(async (_req: Request) => {
  const viewer = await getViewer();
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  return new Response(await getPayoutsCsv(viewer), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": 'attachment; filename="pactnexus-payouts.csv"',
      "cache-control": "private, no-store",
    },
  });
});
