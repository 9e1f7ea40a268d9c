"use server";

import { getViewer } from "@/lib/access/viewer";
import { runAction, type ActionResult } from "@/lib/actions";
import { listMoreComments, type PresentedComment } from "@/lib/comments/queries";
import { listMoreCommitments, type PublicCommitment } from "@/lib/pledges/queries";

/**
 * "Show more" on an event page's long lists (issue 8: the page sends the newest entries only).
 * Reads, open to anyone who may see the event; identities are decided by lib/privacy for the
 * caller, exactly as on the page.
 */
export async function loadMoreCommentsAction(
  input: unknown,
): Promise<ActionResult<{ comments: PresentedComment[]; total: number; canDelete: boolean }>> {
  return runAction("Could not load more comments. Please try again.", async () =>
    listMoreComments(await getViewer(), input),
  );
}

export async function loadMoreCommitmentsAction(
  input: unknown,
): Promise<ActionResult<{ items: PublicCommitment[]; total: number }>> {
  return runAction("Could not load more commitments. Please try again.", async () =>
    listMoreCommitments(await getViewer(), input),
  );
}
