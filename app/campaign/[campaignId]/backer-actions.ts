"use server";

import { getViewer } from "@/lib/access/viewer";
import { runAction, type ActionResult } from "@/lib/actions";
import { AppError } from "@/lib/errors";
import { changeCommitmentCard, withdrawCommitment, type WithdrawResult } from "@/lib/pledges/withdraw";
import { getMyCommitment, type MyCommitment } from "@/lib/pledges/mine";
import { giveUpPlace } from "@/lib/pledges/give-up";

/**
 * What a backer does with their own commitment (issue 18): read it (the event page's "You're in"
 * card asks, so the cached members' copy stays free of anyone's card), withdraw it, change its card.
 * Every check is in lib/pledges; a revalidation is not needed (the counters move the copies' version).
 */
export async function myCommitmentAction(input: unknown): Promise<ActionResult<MyCommitment | null>> {
  return runAction("Could not load your commitment. Please try again.", async () => {
    const viewer = await getViewer();
    if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
    return getMyCommitment(viewer, input);
  });
}

export async function withdrawCommitmentAction(input: unknown): Promise<ActionResult<WithdrawResult>> {
  return runAction("Could not withdraw. Please try again.", async () =>
    withdrawCommitment(await getViewer(), input),
  );
}

export async function changeCardAction(
  input: unknown,
): Promise<ActionResult<{ brand: string; last4: string }>> {
  return runAction("Failed to save payment method", async () =>
    changeCommitmentCard(await getViewer(), input),
  );
}

/** Issue 20: after the tip, a backer hands their place to the first person on the waitlist. */
export async function giveUpPlaceAction(input: unknown): Promise<ActionResult<{ refundPending: boolean }>> {
  return runAction("Could not give up your place. Please try again.", async () =>
    giveUpPlace(await getViewer(), input),
  );
}
