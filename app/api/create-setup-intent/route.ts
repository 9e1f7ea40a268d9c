import { getViewer } from "@/lib/access/viewer";
import { AppError } from "@/lib/errors";
import { handle, parseJson } from "@/lib/http";
import { createSetupIntentForViewer } from "@/lib/payments/service";
import { createSetupIntentSchema } from "@/lib/payments/schema";

export const dynamic = "force-dynamic";

/** SPEC §7: POST {email} -> { clientSecret }. The signed-in viewer, not the body, owns the card. */
export const POST = handle(async (req: Request) => {
  const viewer = await getViewer();
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in to commit to this event");
  await parseJson(req, createSetupIntentSchema);
  return Response.json(await createSetupIntentForViewer(viewer));
});
