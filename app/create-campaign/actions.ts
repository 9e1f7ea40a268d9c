"use server";

import { revalidatePath } from "next/cache";
import { getViewer } from "@/lib/access/viewer";
import { runAction, type ActionResult } from "@/lib/actions";
import { createCampaign } from "@/lib/campaigns/service";
import { deleteDraft, saveDraft } from "@/lib/drafts/service";
import { CREATE_ERROR, DRAFT_DELETE_ERROR, DRAFT_SAVE_ERROR } from "@/lib/campaigns/texts";

/** Create an event from the form (validated again by the shared schema in lib/campaigns). */
export async function createCampaignAction(
  input: unknown,
  draftId?: string | null,
): Promise<ActionResult<{ id: string }>> {
  return runAction(CREATE_ERROR, async () => {
    const viewer = await getViewer();
    const campaign = await createCampaign(viewer, input, {
      draftId: typeof draftId === "string" ? draftId : null,
    });
    // Pending events appear on the home page for admins and on the creator's profile.
    revalidatePath("/");
    revalidatePath("/admin");
    revalidatePath("/profile");
    revalidatePath("/create-campaign");
    return campaign;
  });
}

export async function saveDraftAction(input: unknown): Promise<ActionResult<{ id: string }>> {
  return runAction(DRAFT_SAVE_ERROR, async () => {
    const saved = await saveDraft(await getViewer(), input);
    revalidatePath("/create-campaign");
    return saved;
  });
}

export async function deleteDraftAction(draftId: unknown): Promise<ActionResult<null>> {
  return runAction(DRAFT_DELETE_ERROR, async () => {
    await deleteDraft(await getViewer(), draftId);
    revalidatePath("/create-campaign");
    return null;
  });
}
