"use server";

import { headers } from "next/headers";
import { runAction, type ActionResult } from "@/lib/actions";
import { clientIp } from "@/lib/auth/client-ip";
import { resetPassword } from "@/lib/auth/password-reset";

/** The form behind the emailed reset link: a new password, once per link; limited per client address. */
export async function resetPasswordAction(input: unknown): Promise<ActionResult<{ email: string }>> {
  return runAction("Could not change the password. Please try again.", async () =>
    resetPassword(input, { ip: clientIp(await headers()) }),
  );
}
