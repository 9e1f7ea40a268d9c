"use server";

import { revalidatePath } from "next/cache";
import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/access/viewer";
import { inviteDoorHelper, removeDoorHelper } from "@/lib/tickets/door-helpers";

/** The organizer invites a door helper by email (issue 36 item 2). */
export async function inviteDoorHelperAction(input: {
  campaignId: string;
  email: string;
}): Promise<ActionResult<{ message: string }>> {
  return runAction("Could not send the invitation. Please try again.", async () => {
    const r = await inviteDoorHelper(await getViewer(), input);
    revalidatePath(`/campaign/${input.campaignId}/manage`);
    return r;
  });
}

/** The organizer removes a door helper. */
export async function removeDoorHelperAction(input: {
  campaignId: string;
  email: string;
}): Promise<ActionResult> {
  return runAction("Could not remove the door helper. Please try again.", async () => {
    await removeDoorHelper(await getViewer(), input);
    revalidatePath(`/campaign/${input.campaignId}/manage`);
    return undefined;
  });
}
