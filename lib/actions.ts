import "server-only";
import type { z } from "zod";
import {
  AppError,
  INVALID_TEXT_MESSAGE,
  isAppError,
  isDatabaseUnavailable,
  isInvalidText,
} from "@/lib/errors";
import { logUnexpected } from "@/lib/security/redact";

/** What every server action returns: data, or a user-facing message (and per-field messages). */
export type ActionResult<T = undefined> =
  { ok: true; data: T } | { ok: false; error: string; fieldErrors?: Record<string, string> };

/** Parses untrusted action input with a zod schema; field messages keyed by the first path segment. */
export function parseInput<T extends z.ZodType>(schema: T, input: unknown): z.infer<T> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "_");
      fieldErrors[key] ??= issue.message;
    }
    throw new AppError("BAD_REQUEST", parsed.error.issues[0]?.message ?? "Invalid input.", fieldErrors);
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
    if (isAppError(err)) return { ok: false, error: err.message, fieldErrors: err.fieldErrors };
    if (isDatabaseUnavailable(err))
      return { ok: false, error: "The service is temporarily unavailable. Please try again in a moment." };
    if (isInvalidText(err)) return { ok: false, error: INVALID_TEXT_MESSAGE };
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
