"use server";

import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/access/viewer";
import { excuseDeposit } from "@/lib/pledges/excuse";

/**
 * The organizer excuses an attendee who did not check in (issue 36 item 3): their show-up deposit is
 * refunded. lib/pledges/excuse decides who may (the organizer only) and until when (the grace).
 */
export async function excuseDepositAction(pledgeId: unknown): Promise<ActionResult<{ excused: true }>> {
  return runAction("Could not excuse this deposit. Please try again.", async () =>
    excuseDeposit(await getViewer(), pledgeId),
  );
}
