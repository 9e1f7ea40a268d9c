import "server-only";
import { publicUrls } from "@/lib/env";
import type { z } from "zod";
import { AppError, describeError, isAppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import { logUnexpected } from "@/lib/security/redact";

/**
 * Route-handler helpers: parse a JSON body with a zod schema (400 with a message on bad input) and
 * map every error to a response — domain errors to their status, an unreachable database to 503,
 * anything else to a logged 500 that never reveals internals.
 */
export async function parseJson<T extends z.ZodType>(req: Request, schema: T): Promise<z.infer<T>> {
  let body: unknown;
  try {
    const text = await req.text();
    body = text ? JSON.parse(text) : {};
  } catch {
    throw new AppError("BAD_REQUEST", "The request body must be valid JSON.");
  }
  try {
    return parseInput(schema, body, { withPath: true });
  } catch (err) {
    // Route handlers answer the message only (no per-field map): SPEC §7's clients read `error.message`.
    if (isAppError(err)) throw new AppError(err.code, err.message);
    throw err;
  }
}

export function errorResponse(err: unknown): Response {
  const known = describeError(err);
  if (isAppError(err))
    return Response.json(
      { error: { code: err.code, message: err.message, fieldErrors: err.fieldErrors } },
      { status: err.status },
    );
  if (known)
    return Response.json(
      { error: { code: known.code, message: known.message } },
      known.status === 503 ? { status: 503, headers: { "Retry-After": "5" } } : { status: known.status },
    );
  logUnexpected("[api] unexpected error", err);
  return Response.json(
    { error: { code: "INTERNAL", message: "Something went wrong. Please try again." } },
    { status: 500 },
  );
}

export const CROSS_ORIGIN_MESSAGE = "Cross-origin requests are not allowed.";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

const hostOf = (url: string | undefined | null): string | null => {
  if (!url) return null;
  try {
    return new URL(url).host.toLowerCase();
  } catch {
    return null;
  }
};

/**
 * CSRF defence for mutating route handlers (OWASP ASVS 4.2.2 / 13.2.3): a browser always sends
 * `Origin` on a cross-site POST, so a present Origin must name this app — the host the request
 * was sent to (`X-Forwarded-Host`, else `Host`, as Next's own server-action check reads it) or the
 * configured public URL (APP_URL / NEXTAUTH_URL). A request without Origin comes from a
 * non-browser client (curl, Stripe) unless `Sec-Fetch-Site` says a browser sent it cross-site.
 * Safe methods are not checked. Throws FORBIDDEN.
 */
export function requireSameOrigin(req: Request): void {
  if (SAFE_METHODS.has(req.method.toUpperCase())) return;
  const origin = req.headers.get("origin");
  if (origin === null) {
    if (req.headers.get("sec-fetch-site") === "cross-site")
      throw new AppError("FORBIDDEN", CROSS_ORIGIN_MESSAGE);
    return;
  }
  const originHost = origin === "null" ? null : hostOf(origin);
  const allowed = [
    req.headers.get("x-forwarded-host")?.split(",")[0]?.trim().toLowerCase(),
    req.headers.get("host")?.trim().toLowerCase(),
    ...publicUrls().map(hostOf),
  ].filter(Boolean);
  if (!originHost || !allowed.includes(originHost)) throw new AppError("FORBIDDEN", CROSS_ORIGIN_MESSAGE);
}

type HandleOptions = {
  /** "any" skips the Origin check: only for requests authenticated otherwise (the signed Stripe webhook). */
  origin?: "same" | "any";
};

/**
 * Wraps a route handler so thrown errors become responses, and refuses cross-origin mutating
 * requests (see requireSameOrigin) before the handler runs.
 */
export function handle<A extends unknown[]>(fn: (...args: A) => Promise<Response>, opts: HandleOptions = {}) {
  return async (...args: A): Promise<Response> => {
    try {
      const req = args[0];
      if (opts.origin !== "any" && req instanceof Request) requireSameOrigin(req);
      return await fn(...args);
    } catch (err) {
      return errorResponse(err);
    }
  };
}
