"use server";

import { headers } from "next/headers";
import { runAction, type ActionResult } from "@/lib/actions";
import { clientIp } from "@/lib/auth/client-ip";
import { AUTH_TEXT } from "@/lib/auth/schema";
import { signUp } from "@/lib/auth/service";
import { changePassword } from "@/lib/auth/password-reset";
import { getViewer } from "@/lib/access/viewer";

/** Creates an email/password account; the form then signs it in through NextAuth. */
export async function signUpAction(input: unknown): Promise<ActionResult<{ email: string }>> {
  return runAction(AUTH_TEXT.fallback, async () => {
    const user = await signUp(input, { ip: clientIp(await headers()) });
    return { email: user.email };
  });
}

/** Change password on the profile: ends every session; the form then signs this browser in again. */
export async function changePasswordAction(input: unknown): Promise<ActionResult<{ email: string }>> {
  return runAction("Could not change the password. Please try again.", async () =>
    changePassword(await getViewer(), input),
  );
}
