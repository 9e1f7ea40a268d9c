"use server";

import { redirect } from "next/navigation";
import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/auth/viewer";
import { confirmEmail, resendEmailConfirmation } from "@/lib/auth/email-confirmation";

/** The button on /verify-email (a POST: mail scanners opening the link must not confirm). */
export async function confirmEmailAction(formData: FormData): Promise<void> {
  const ok = await confirmEmail(formData instanceof FormData ? formData.get("token") : null);
  redirect(ok ? "/verify-email?done=1" : "/verify-email?invalid=1");
}

/** "Resend confirmation email" on the profile. */
export async function resendConfirmationAction(): Promise<ActionResult<{ message: string }>> {
  return runAction("Could not send the email. Please try again.", async () => ({
    message: await resendEmailConfirmation(await getViewer()),
  }));
}
