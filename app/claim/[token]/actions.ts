"use server";

import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/access/viewer";
import { claimSeat } from "@/lib/pledges/friends";

/** A named friend claims the seat of their link (issue 37): lib/pledges/friends claimSeat decides. */
export async function claimSeatAction(input: unknown): Promise<ActionResult<{ campaignId: string }>> {
  return runAction("Could not claim the seat. Please try again.", async () =>
    claimSeat(await getViewer(), input),
  );
}
