import { getViewer } from "@/lib/access/viewer";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { getCommitmentsCsv } from "@/lib/pledges/commitments-csv";
import { ACCESS_TEXTS } from "@/lib/access/texts";

export const dynamic = "force-dynamic";

/** CSV export of a campaign's commitments: the creator only (404 for everyone else). */
export const GET = handle(async (_req: Request, { params }: { params: Promise<{ campaignId: string }> }) => {
  const { campaignId } = await params;
  const file = await getCommitmentsCsv(campaignId, await getViewer());
  if (!file) throw new AppError("NOT_FOUND", ACCESS_TEXTS.manageDenied);
  return new Response(file.csv, {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": `attachment; filename="${file.filename}"`,
      "cache-control": "private, no-store",
    },
  });
});
