"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/access/viewer";
import { updateCampaign } from "@/lib/campaigns/edit";

/** The organizer saves the edit form (issue 17); lib/campaigns/edit decides what may change. */
export async function updateCampaignAction(
  campaignId: unknown,
  input: unknown,
  opts?: { resubmit?: boolean },
): Promise<ActionResult<{ id: string; emailed: number }>> {
  return runAction("Error saving your changes. Please try again.", async () => {
    const result = await updateCampaign(await getViewer(), campaignId, input, {
      resubmit: opts?.resubmit === true,
    });
    revalidatePath(`/campaign/${result.id}`);
    revalidatePath("/");
    return result;
  });
}
