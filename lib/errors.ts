/**
 * Domain errors. Code in lib/ throws an AppError with a code from this list; route handlers and
 * server actions map it to an HTTP status and a user-facing message in one place (toHttp).
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  UNAUTHENTICATED: 401,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  RATE_LIMITED: 429,
  PAYMENT_FAILED: 402,
  UNAVAILABLE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export class AppError extends Error {
  readonly code: ErrorCode;
  readonly fieldErrors?: Record<string, string>;
  constructor(code: ErrorCode, message: string, fieldErrors?: Record<string, string>) {
    super(message);
    this.name = "AppError";
    this.code = code;
    this.fieldErrors = fieldErrors;
  }
  get status(): number {
    return ERROR_STATUS[this.code];
  }
}

export const isAppError = (e: unknown): e is AppError => e instanceof AppError;

/** True when the database cannot be reached (server down, connection refused, pool timeout). */
export function isDatabaseUnavailable(e: unknown): boolean {
  const text = `${(e as { code?: string })?.code ?? ""} ${(e as Error)?.message ?? ""}`;
  return /ECONNREFUSED|ECONNRESET|57P01|57P03|08006|08001|Connection terminated|timeout exceeded when trying to connect|DatabaseNotReachable|P1001|P1017/i.test(
    text,
  );
}

/** Shown when text cannot be stored (PostgreSQL refuses NUL bytes and invalid UTF-8 in text columns). */
export const INVALID_TEXT_MESSAGE =
  "The request contains characters that cannot be stored. Please remove them and try again.";

/**
 * True when PostgreSQL refused a value's bytes (22021 invalid byte sequence, e.g. "\u0000";
 * 22P05 untranslatable character). The statement failed, so nothing was written: the request is
 * bad input (400), not a server fault.
 */
export function isInvalidText(e: unknown): boolean {
  const text = `${(e as { code?: string })?.code ?? ""} ${(e as Error)?.message ?? ""}`;
  return /\b22021\b|\b22P05\b|invalid byte sequence for encoding|untranslatable character/i.test(text);
}

const UNAVAILABLE_MESSAGE = "The service is temporarily unavailable. Please try again in a moment.";

/**
 * What a failure means for the person who asked, the same for server actions (lib/actions.ts
 * runAction) and route handlers (lib/http.ts errorResponse): a domain error says its own message;
 * an unreachable database, a temporary unavailability; text PostgreSQL cannot store, bad input.
 * Null for anything else: an unexpected fault, which the caller logs and answers generically.
 */
export function describeError(
  err: unknown,
): { code: ErrorCode; status: number; message: string; fieldErrors?: Record<string, string> } | null {
  if (isAppError(err))
    return { code: err.code, status: err.status, message: err.message, fieldErrors: err.fieldErrors };
  if (isDatabaseUnavailable(err)) return { code: "UNAVAILABLE", status: 503, message: UNAVAILABLE_MESSAGE };
  if (isInvalidText(err)) return { code: "BAD_REQUEST", status: 400, message: INVALID_TEXT_MESSAGE };
  return null;
}
