import "server-only";
import type { z } from "zod";
import { AppError, describeError, isAppError } from "@/lib/errors";
import { logUnexpected } from "@/lib/security/redact";

/** What every server action returns: data, or a user-facing message (and per-field messages). */
export type ActionResult<T = undefined> =
  { ok: true; data: T } | { ok: false; error: string; fieldErrors?: Record<string, string> };

/**
 * Parses untrusted input (an action's arguments, a route handler's JSON body, a service's input)
 * with a zod schema: the one way input is checked. A failure is a BAD_REQUEST AppError whose
 * message is the first issue's (prefixed with its path when `withPath`, as route handlers answer),
 * or `message` when the caller names the failure itself; field messages are keyed by the first
 * path segment.
 */
export function parseInput<T extends z.ZodType>(
  schema: T,
  input: unknown,
  opts: { message?: string; withPath?: boolean } = {},
): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "_");
      fieldErrors[key] ??= issue.message;
    }
    const first = parsed.error.issues[0];
    const where = opts.withPath && first?.path?.length ? `${first.path.join(".")}: ` : "";
    throw new AppError(
      "BAD_REQUEST",
      opts.message ?? `${where}${first?.message ?? "Invalid input."}`,
      fieldErrors,
    );
  }
  return parsed.data;
}

/**
 * Runs an action body and maps failures: AppError → its message; an unreachable database → a
 * temporary-unavailability message; anything else → `fallback` (the SPEC's text for that action).
 */
export async function runAction<T>(fallback: string, fn: () => Promise<T>): Promise<ActionResult<T>> {
  try {
    return { ok: true, data: await fn() };
  } catch (err) {
    const known = describeError(err);
    if (known)
      return isAppError(err)
        ? { ok: false, error: known.message, fieldErrors: known.fieldErrors }
        : { ok: false, error: known.message };
    // Next's redirect()/notFound() work by throwing: let them through.
    if (
      err &&
      typeof err === "object" &&
      "digest" in err &&
      String((err as { digest: unknown }).digest).startsWith("NEXT_")
    )
      throw err;
    logUnexpected("[action] unexpected error", err);
    return { ok: false, error: fallback };
  }
}
