"use server";

import { headers } from "next/headers";
import { after } from "next/server";
import { runAction, type ActionResult } from "@/lib/actions";
import { clientIp } from "@/lib/auth/client-ip";
import { requestPasswordReset, type Defer } from "@/lib/auth/password-reset";
import { logUnexpected } from "@/lib/security/redact";

/**
 * The account-dependent work runs after the answer is sent (issue 31: the same time for every
 * address). Outside a request (a test calling the action) Next's `after` is unavailable: the task
 * then runs detached, still after the answer.
 */
const afterResponse: Defer = (task) => {
  const run = () => task().catch((err) => logUnexpected("password reset email", err));
  try {
    after(run);
  } catch {
    void run();
  }
};

/** "Forgot password?": the same answer whether or not the account exists (lib/auth/password-reset). */
export async function requestPasswordResetAction(input: unknown): Promise<ActionResult<{ message: string }>> {
  return runAction("Could not send the email. Please try again.", async () => ({
    message: await requestPasswordReset(input, { ip: clientIp(await headers()), defer: afterResponse }),
  }));
}
