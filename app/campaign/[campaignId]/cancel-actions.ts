"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/access/viewer";
import { cancelCampaign } from "@/lib/cancellation/service";
import { CANCEL_ERROR } from "@/lib/cancellation/schema";

export async function cancelCampaignAction(input: {
  campaignId: string;
  reason?: string;
}): Promise<ActionResult<{ refunded: number; emailed: number }>> {
  return runAction(CANCEL_ERROR, async () => {
    const { campaignId, refunded, emailed } = await cancelCampaign(await getViewer(), input);
    revalidatePath(`/campaign/${campaignId}`);
    revalidatePath(`/campaign/${campaignId}/manage`);
    revalidatePath("/");
    return { refunded, emailed };
  });
}
