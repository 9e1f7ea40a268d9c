"use server";

import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/access/viewer";
import { AppError } from "@/lib/errors";
import { inviteFriend, myInvites, type MyInvites } from "@/lib/pledges/friends";

/**
 * Named friends (issue 37): the holder of a group names a friend by email for a guest seat, and reads
 * the invitations they sent. lib/pledges/friends decides who may (the holder of those seats only).
 */
export async function inviteFriendAction(input: unknown): Promise<ActionResult<{ message: string }>> {
  return runAction("Could not send the invitation. Please try again.", async () =>
    inviteFriend(await getViewer(), input),
  );
}

export async function myInvitesAction(input: unknown): Promise<ActionResult<MyInvites>> {
  return runAction("Could not load your invitations. Please try again.", async () => {
    const viewer = await getViewer();
    if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
    return myInvites(viewer, input);
  });
}
