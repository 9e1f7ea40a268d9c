"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/access/viewer";
import { postUpdate } from "@/lib/updates/service";

export async function postUpdateAction(input: {
  campaignId: string;
  text: string;
}): Promise<ActionResult<{ emailed: number }>> {
  return runAction("Error posting update. Please try again.", async () => {
    const { campaignId, emailed } = await postUpdate(await getViewer(), input);
    revalidatePath(`/campaign/${campaignId}`);
    return { emailed };
  });
}
