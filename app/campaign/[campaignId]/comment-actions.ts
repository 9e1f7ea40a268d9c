"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/access/viewer";
import { createComment, deleteComment } from "@/lib/comments/service";

/** SPEC §8: the comment failure text. */
const POST_FAILED = "Error posting comment. Please try again.";

export async function postCommentAction(input: {
  campaignId: string;
  text: string;
}): Promise<ActionResult<{ id: string }>> {
  return runAction(POST_FAILED, async () => {
    const viewer = await getViewer();
    const { id, campaignId } = await createComment(viewer, input);
    revalidatePath(`/campaign/${campaignId}`);
    return { id };
  });
}

export async function deleteCommentAction(input: { commentId: string }): Promise<ActionResult> {
  return runAction("Error deleting comment. Please try again.", async () => {
    const viewer = await getViewer();
    const { campaignId } = await deleteComment(viewer, input);
    revalidatePath(`/campaign/${campaignId}`);
    return undefined;
  });
}
