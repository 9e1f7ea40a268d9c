"use server";

import { revalidatePath } from "next/cache";
import { getViewer } from "@/lib/auth/viewer";
import { runAction, type ActionResult } from "@/lib/actions";
import { setApprovalStatus } from "@/lib/campaigns/service";
import { APPROVAL_ERROR } from "@/lib/campaigns/messages";

/** Approve, reject or re-approve a campaign (admins only; checked in lib/campaigns/service). */
export async function setApprovalStatusAction(campaignId: string, approvalStatus: "approved" | "rejected"): Promise<ActionResult<{ approvalStatus: string }>> {
  return runAction(APPROVAL_ERROR, async () => {
    const updated = await setApprovalStatus(await getViewer(), { campaignId, approvalStatus });
    revalidatePath("/");
    revalidatePath("/admin");
    revalidatePath(`/campaign/${campaignId}`);
    return { approvalStatus: updated.approvalStatus };
  });
}
