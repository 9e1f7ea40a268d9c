/**
 * Who may sign in through an identity provider. A Google account is trusted with an email only
 * when Google reports that address verified: otherwise anyone could create a Google account
 * for someone else's address and, through NextAuth's email-based account linking, take over (or
 * pre-claim) the password account with that email. So unverified Google emails neither link to an
 * existing account nor create a new one.
 */
export const GOOGLE_UNVERIFIED_ERROR = "GoogleEmailUnverified";
/** A Google account of another address while signed in: it is never linked (lib/auth/options.ts). */
export const GOOGLE_OTHER_EMAIL_ERROR = "GoogleOtherEmail";

export function oauthSignInAllowed(provider: string, profile: unknown): true | { error: string } {
  if (provider !== "google") return true;
  const p = profile as { email?: unknown; email_verified?: unknown } | undefined;
  if (typeof p?.email !== "string" || !p.email.trim()) return { error: GOOGLE_UNVERIFIED_ERROR };
  return p.email_verified === true ? true : { error: GOOGLE_UNVERIFIED_ERROR };
}
