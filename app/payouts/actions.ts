"use server";

import { redirect } from "next/navigation";
import { revalidatePath } from "next/cache";
import { getViewer } from "@/lib/access/viewer";
import { isAppError } from "@/lib/errors";
import { runAction, type ActionResult } from "@/lib/actions";
import { setDemoAccountState, startPayoutOnboarding } from "@/lib/payouts/accounts";
import { setPayoutHold } from "@/lib/payouts/service";

/**
 * Payout actions (issue 23). Onboarding and the demo stand-in are plain form posts that redirect;
 * every rule is in lib/payouts (the organizer's own account; admins for holds).
 */
export async function startPayoutOnboardingAction(): Promise<void> {
  const viewer = await getViewer();
  if (!viewer) redirect("/profile?next=%2Fpayouts");
  let url: string;
  try {
    ({ url } = await startPayoutOnboarding(viewer));
  } catch (err) {
    if (isAppError(err) && err.code === "FORBIDDEN") redirect("/payouts?error=unconfirmed");
    if (!isAppError(err)) console.warn(`[payouts] onboarding could not start: ${(err as Error).message}`);
    redirect("/payouts?error=onboarding");
  }
  redirect(url);
}

export async function setDemoPayoutStateAction(form: FormData): Promise<void> {
  const viewer = await getViewer();
  if (!viewer) redirect("/profile?next=%2Fpayouts");
  try {
    await setDemoAccountState(viewer, { accountId: form.get("account"), outcome: form.get("outcome") });
  } catch {
    redirect("/payouts?error=demo");
  }
  revalidatePath("/payouts");
  redirect("/payouts?from=onboarding");
}

/** An admin holds an event's payout with a reason, or releases it (no reason). */
export async function setPayoutHoldAction(input: {
  campaignId: string;
  reason: string | null;
}): Promise<ActionResult<{ held: boolean }>> {
  return runAction("Error updating the payout hold. Please try again.", async () => {
    const result = await setPayoutHold(await getViewer(), input?.campaignId, input?.reason ?? null);
    revalidatePath("/admin");
    return result;
  });
}
