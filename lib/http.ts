import "server-only";
import type { z } from "zod";
import { AppError, isAppError, isDatabaseUnavailable } from "@/lib/errors";

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
  const parsed = schema.safeParse(body);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const where = issue?.path?.length ? `${issue.path.join(".")}: ` : "";
    throw new AppError("BAD_REQUEST", `${where}${issue?.message ?? "Invalid request."}`);
  }
  return parsed.data;
}

export function errorResponse(err: unknown): Response {
  if (isAppError(err)) {
    return Response.json({ error: { code: err.code, message: err.message, fieldErrors: err.fieldErrors } }, { status: err.status });
  }
  if (isDatabaseUnavailable(err)) {
    return Response.json(
      { error: { code: "UNAVAILABLE", message: "The service is temporarily unavailable. Please try again in a moment." } },
      { status: 503, headers: { "Retry-After": "5" } },
    );
  }
  console.error("[api] unexpected error", err);
  return Response.json({ error: { code: "INTERNAL", message: "Something went wrong. Please try again." } }, { status: 500 });
}

/** Wraps a route handler so thrown errors become responses. */
export function handle<A extends unknown[]>(fn: (...args: A) => Promise<Response>) {
  return async (...args: A): Promise<Response> => {
    try {
      return await fn(...args);
    } catch (err) {
      return errorResponse(err);
    }
  };
}
