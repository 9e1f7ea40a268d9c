"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/access/viewer";
import { goAhead } from "@/lib/campaigns/go-ahead";

/** Issue 21: the organizer goes ahead from 80% of the goal (every check is in lib/campaigns/go-ahead). */
export async function goAheadAction(input: unknown): Promise<ActionResult<{ members: number }>> {
  return runAction("Could not go ahead. Please try again.", async () => {
    const done = await goAhead(await getViewer(), input);
    const id = (input as { campaignId: string }).campaignId;
    revalidatePath(`/campaign/${id}`);
    revalidatePath(`/campaign/${id}/manage`);
    return done;
  });
}
