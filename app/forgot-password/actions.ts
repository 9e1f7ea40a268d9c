"use server";

import { headers } from "next/headers";
import { runAction, type ActionResult } from "@/lib/actions";
import { clientIp } from "@/lib/auth/client-ip";
import { requestPasswordReset } from "@/lib/auth/password-reset";

/** "Forgot password?": the same answer whether or not the account exists (lib/auth/password-reset). */
export async function requestPasswordResetAction(input: unknown): Promise<ActionResult<{ message: string }>> {
  return runAction("Could not send the email. Please try again.", async () => ({
    message: await requestPasswordReset(input, { ip: clientIp(await headers()) }),
  }));
}
