import "server-only";
import { secretValues } from "@/lib/env";

/**
 * Secrets never reach the logs (issue 9, OWASP ASVS 7.1.1/7.1.2): every unexpected error is logged
 * through logUnexpected, which prints the error's name, message and stack with credentials masked.
 * Prisma validation errors quote the call's arguments and driver errors may quote connection
 * strings, so the text is scrubbed rather than trusted.
 */

const PATTERNS: [RegExp, string][] = [
  // Stripe secret, restricted and webhook keys; publishable keys are public but masked alike
  [/\b(sk|rk|pk)_(live|test)_[A-Za-z0-9]{6,}/g, "$1_$2_[redacted]"],
  [/\bwhsec_[A-Za-z0-9]{6,}/g, "whsec_[redacted]"],
  // Stripe client secrets (seti_..._secret_..., pi_..._secret_...) and the demo gateway's
  [/\b([a-z]+_[A-Za-z0-9_]+)_secret_[A-Za-z0-9]+/g, "$1_secret_[redacted]"],
  // user:password@ in any URL (postgres://, smtps://)
  [/\b([a-z][a-z0-9+.-]*:\/\/[^\s:/@]+):[^\s@/]+@/gi, "$1:[redacted]@"],
  // JWTs (session tokens) and bearer tokens
  [/\beyJ[A-Za-z0-9_-]{5,}\.[A-Za-z0-9_-]{5,}(\.[A-Za-z0-9_-]*)?/g, "[redacted-jwt]"],
  [/\b(Bearer|Basic)\s+[A-Za-z0-9._~+/=-]{8,}/gi, "$1 [redacted]"],
  // cookies and named fields: session-token=..., "password": "...", passwordHash: "..."
  [/((?:__Secure-|__Host-)?next-auth\.[a-z-]+(?:\.\d+)?=)[^;\s"]+/gi, "$1[redacted]"],
  [
    /(["']?(?:password|passwordHash|newPassword|token|secret|cvc|cardNumber|clientSecret|access_token|refresh_token|id_token)["']?\s*[:=]\s*)("[^"]*"|'[^']*'|[^\s,}]+)/gi,
    '$1"[redacted]"',
  ],
  // argon2 hashes
  [/\$argon2(id|i|d)\$[^\s"']+/g, "$argon2$1$[redacted]"],
];

export function redactSecrets(text: string): string {
  let out = text;
  for (const [name, value] of secretValues()) out = out.split(value).join(`[${name}]`);
  for (const [re, to] of PATTERNS) out = out.replace(re, to);
  return out;
}

/** Logs an unexpected error (name, message, stack, cause) with secrets masked. */
export function logUnexpected(tag: string, err: unknown): void {
  let text: string;
  if (err instanceof Error) {
    text =
      err.stack && err.stack.includes(err.message)
        ? err.stack
        : `${err.name}: ${err.message}\n${err.stack ?? ""}`;
    const code = (err as { code?: unknown }).code;
    if (code !== undefined) text += `\ncode: ${String(code)}`;
    if (err.cause !== undefined)
      text += `\ncause: ${err.cause instanceof Error ? (err.cause.stack ?? err.cause.message) : safeJson(err.cause)}`;
  } else {
    text = safeJson(err);
  }
  console.error(`${tag} ${redactSecrets(text)}`);
}

function safeJson(v: unknown): string {
  try {
    return typeof v === "string" ? v : JSON.stringify(v);
  } catch {
    return String(v);
  }
}
