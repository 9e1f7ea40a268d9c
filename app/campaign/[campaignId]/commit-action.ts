"use server";

import { getViewer } from "@/lib/access/viewer";
import { runAction, type ActionResult } from "@/lib/actions";
import { commitToCampaign } from "@/lib/pledges/service";
import type { CommitResult } from "@/lib/pledges/decide";
import { COMMIT_MESSAGES } from "@/lib/access/pledge-policy";

/**
 * Commit to an event (SPEC §4 commit flow). Input: { campaignId, paymentMethodId?, amount? }.
 *
 * No revalidatePath here, on purpose (issue 8, commits/s): a revalidation makes Next re-render the
 * whole event page into the action's response, which the commit modal never reads — it shows the
 * result from the returned data and calls router.refresh() when closed. Nothing else needs it:
 * visitors' copies are keyed by the campaign's data version (the commit's counter update moves it:
 * lib/cache/visitor-version), and signed-in pages render per request.
 */
export async function commitToCampaignAction(input: unknown): Promise<ActionResult<CommitResult>> {
  return runAction(COMMIT_MESSAGES.saveFailed, async () => commitToCampaign(await getViewer(), input));
}
