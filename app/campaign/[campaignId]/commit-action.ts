"use server";

import { revalidatePath } from "next/cache";
import { getViewer } from "@/lib/auth/viewer";
import { runAction, type ActionResult } from "@/lib/actions";
import { commitToCampaign, type CommitResult } from "@/lib/pledges/service";
import { COMMIT_MESSAGES } from "@/lib/pledges/policy";

/** Commit to an event (SPEC §4 commit flow). Input: { campaignId, paymentMethodId?, amount? }. */
export async function commitToCampaignAction(input: unknown): Promise<ActionResult<CommitResult>> {
  const result = await runAction(COMMIT_MESSAGES.saveFailed, async () => commitToCampaign(await getViewer(), input));
  if (result.ok) {
    // Visitors see the new count on their next request.
    revalidatePath(`/campaign/${result.data.campaignId}`);
    revalidatePath(`/campaign/${result.data.campaignId}/manage`);
    revalidatePath("/");
  }
  return result;
}
