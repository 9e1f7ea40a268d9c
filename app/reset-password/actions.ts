"use server";

import { runAction, type ActionResult } from "@/lib/actions";
import { resetPassword } from "@/lib/auth/password-reset";

/** The form behind the emailed reset link: a new password, once per link. */
export async function resetPasswordAction(input: unknown): Promise<ActionResult<{ email: string }>> {
  return runAction("Could not change the password. Please try again.", async () => resetPassword(input));
}
