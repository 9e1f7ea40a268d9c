import { getViewer } from "@/lib/access/viewer";
import { AppError } from "@/lib/errors";
import { handle } from "@/lib/http";
import { removeCover, setCover } from "@/lib/images/service";
import { COVER_TEXTS } from "@/lib/images/texts";
import { coverUrl } from "@/lib/images/limits";

export const dynamic = "force-dynamic";

type Params = { params: Promise<{ campaignId: string }> };

/**
 * The cover upload (issue 17): a multipart form with one `file`, from the event's organizer only.
 * The front server caps this path's body at 5 MB plus the form's envelope (scripts/lib/front-server).
 */
export const POST = handle(async (req: Request, { params }: Params) => {
  const { campaignId } = await params;
  const viewer = await getViewer();
  let form: FormData;
  try {
    form = await req.formData();
  } catch {
    throw new AppError("BAD_REQUEST", COVER_TEXTS.missing);
  }
  const { id } = await setCover(viewer, campaignId, form.get("file"));
  return Response.json({ id, url: coverUrl(id, "medium"), message: COVER_TEXTS.saved });
});

/** Removes the cover; the event shows its generated one again. */
export const DELETE = handle(async (_req: Request, { params }: Params) => {
  const { campaignId } = await params;
  await removeCover(await getViewer(), campaignId);
  return Response.json({ message: COVER_TEXTS.removed });
});
