"use server";

import { headers } from "next/headers";
import { runAction, type ActionResult } from "@/lib/actions";
import { clientIp } from "@/lib/auth/client-ip";
import { getViewer } from "@/lib/access/viewer";
import { confirmEmail, resendEmailConfirmation } from "@/lib/auth/email-confirmation";

/**
 * The form on /verify-email (a POST: mail scanners opening the link must not confirm). The person
 * confirming sets the account's password (issue 31): { token, password, passwordConfirm }; without a
 * password nothing is confirmed. Limited per client address (lib/auth/email-confirmation).
 */
export async function confirmEmailAction(input: unknown): Promise<ActionResult<{ email: string }>> {
  return runAction("Could not confirm the address. Please try again.", async () =>
    confirmEmail(input, { ip: clientIp(await headers()) }),
  );
}

/** "Resend confirmation email" on the profile. */
export async function resendConfirmationAction(): Promise<ActionResult<{ message: string }>> {
  return runAction("Could not send the email. Please try again.", async () => ({
    message: await resendEmailConfirmation(await getViewer()),
  }));
}
