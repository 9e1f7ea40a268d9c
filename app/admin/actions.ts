"use server";

import { revalidatePath } from "next/cache";
import { getViewer } from "@/lib/access/viewer";
import { runAction, type ActionResult } from "@/lib/actions";
import { deleteTestCampaigns, setApprovalStatus } from "@/lib/campaigns/service";
import { APPROVAL_ERROR, DELETE_TEST_ERROR, KEPT_TITLES_NAMED } from "@/lib/campaigns/texts";

/**
 * Approve, reject (with a reason, emailed to the organizer) or re-approve a campaign (admins only;
 * checked in lib/campaigns/service, which also refuses to reject an event that has tipped).
 */
export async function setApprovalStatusAction(
  campaignId: string,
  approvalStatus: "approved" | "rejected",
  reason?: string,
): Promise<ActionResult<{ approvalStatus: string }>> {
  return runAction(APPROVAL_ERROR, async () => {
    const updated = await setApprovalStatus(await getViewer(), { campaignId, approvalStatus, reason });
    revalidatePath("/");
    revalidatePath("/admin");
    revalidatePath(`/campaign/${campaignId}`);
    return { approvalStatus: updated.approvalStatus };
  });
}

/**
 * Delete every test event with its pledges and comments, except those with money on them, which are
 * kept and named (admins only; both checked in lib/campaigns/service).
 */
export async function deleteTestEventsAction(): Promise<
  ActionResult<{ deleted: number; kept: string[]; keptCount: number }>
> {
  return runAction(DELETE_TEST_ERROR, async () => {
    const { deleted, kept } = await deleteTestCampaigns(await getViewer());
    if (deleted > 0) {
      revalidatePath("/");
      revalidatePath("/admin");
      revalidatePath("/profile");
    }
    return { deleted, kept: kept.slice(0, KEPT_TITLES_NAMED).map((e) => e.title), keptCount: kept.length };
  });
}
