import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { isCommonPassword } from "@/lib/auth/common-passwords";

/**
 * The sign-in / sign-up form: one schema per mode, used by the form in the browser
 * (components/auth/sign-in-card.tsx) and again on the server (lib/auth/service.ts), so both
 * give the same messages.
 */
const EMAIL_MAX = 254; // RFC 5321 path limit
const PASSWORD_MIN = 6; // SPEC §9
export const PASSWORD_MAX = 128; // long enough for any password manager; bounds the hashing work
export const NAME_MAX = 50;

/** User-facing texts of the sign-in form (SPEC §8), plus ours for the cases SPEC leaves open. */
export const AUTH_TEXT = {
  emailInUse: "Email already in use",
  weakPassword: "Password is too weak",
  invalidEmail: "Invalid email address",
  noAccount: "No account found with this email",
  incorrectPassword: "Incorrect password",
  fallback: "Authentication failed",
  emailRequired: "Email is required",
  passwordRequired: "Password is required",
  passwordTooShort: `Password must be at least ${PASSWORD_MIN} characters`,
  passwordTooLong: `Password must be at most ${PASSWORD_MAX} characters`,
  nameTooLong: `Display name must be at most ${NAME_MAX} characters`,
  nameIsEmail: "Display name cannot be an email address",
  nameReserved: 'Display name cannot be "Event organizer", "Anonymous …", or an attendee or commenter number',
  googleOnly: "This account signs in with Google. Use Continue with Google.",
  oauthFailed: "Failed to sign in. Please try again.",
  googleUnverified: "Your Google email address is not verified, so it cannot be used to sign in here.",
  googleOtherEmail: "This Google account uses another email address. Sign out first to use it.",
} as const;

/** Password reset and change (issue 18; lib/auth/password-reset). */
export const RESET_TEXT = {
  sent: "If an account exists for that address, we sent it an email with a link to reset the password. The link works once, within an hour.",
  invalid: "This reset link is not valid or has expired. Ask for a new one.",
  done: "Your password is changed. Sign in with the new one.",
  changed: "Your password is changed. Other devices are signed out.",
  wrongCurrent: "Your current password is not correct.",
  googleOnly: "This account signs in with Google, so it has no password to change.",
  tooMany: (minutes: string) => `Too many reset requests. Please try again in ${minutes}.`,
} as const;

/** Email confirmation (lib/auth/email-confirmation; the person confirming sets the password, issue 31). */
export const CONFIRM_TEXT = {
  signedIn: "Your email address is confirmed, and you are signed in with your new password.",
  confirmedSignIn: "Your email address is confirmed. Sign in with your new password.",
  mismatch: "The passwords do not match.",
  invalid:
    'This confirmation link is not valid or has expired. Sign in and send a new one from your profile, or use "Forgot password?" on the sign-in page: its link confirms the address too.',
  alreadyConfirmed: "Your email address is already confirmed.",
  sent: "We sent a confirmation link to your email address.",
} as const;

/** Shown under a new password before submitting (SPEC §9's rule, issue 18). */
export const PASSWORD_HINT = `At least ${PASSWORD_MIN} characters, not a common password.`;

export const tooManyAttemptsText = (minutes: string) => `Too many attempts. Try again in ${minutes}.`;
export const tooManySignUpsText = (minutes: string) =>
  `Too many accounts created from this network. Try again in ${minutes}.`;

/** Stored form of an email: trimmed and lower-cased, so another case is the same account. */
export const normalizeEmail = (email: string) => email.trim().toLowerCase();

export const emailSchema = z
  .string({ error: AUTH_TEXT.emailRequired })
  .trim()
  .toLowerCase()
  .min(1, AUTH_TEXT.emailRequired)
  .max(EMAIL_MAX, AUTH_TEXT.invalidEmail)
  .pipe(z.email({ error: AUTH_TEXT.invalidEmail }));

export const signInSchema = z.object({
  email: emailSchema,
  password: z
    .string({ error: AUTH_TEXT.passwordRequired })
    .min(1, AUTH_TEXT.passwordRequired)
    .min(PASSWORD_MIN, AUTH_TEXT.passwordTooShort)
    .max(PASSWORD_MAX, AUTH_TEXT.passwordTooLong),
});

export const newPasswordSchema = z
  .string({ error: AUTH_TEXT.passwordRequired })
  .min(1, AUTH_TEXT.passwordRequired)
  .max(PASSWORD_MAX, AUTH_TEXT.passwordTooLong)
  .refine((p) => p.length >= PASSWORD_MIN && !isCommonPassword(p), AUTH_TEXT.weakPassword);

/**
 * Display names are public (DESIGN §1 "public names"), so one may not carry an email address nor
 * pose as a label the app gives others: "Event organizer", "Anonymous …", "Attendee #n",
 * "Commenter #n". The same rule runs in the migration that cleared such names (public_names).
 */
export const looksLikeEmail = (name: string) => /\S@\S/.test(name) || /^@|@$/.test(name.trim());
export const isReservedDisplayName = (name: string) =>
  /^\s*(event\s+organi[sz]er\b|anonymous\b|(attendee|commenter)\s*#?\s*\d+\s*$)/i.test(name);

const displayNameSchema = z
  .string()
  .trim()
  .max(NAME_MAX, AUTH_TEXT.nameTooLong)
  .refine((v) => !looksLikeEmail(v), AUTH_TEXT.nameIsEmail)
  .refine((v) => !isReservedDisplayName(v), AUTH_TEXT.nameReserved)
  .nullish()
  .transform((v) => v || null);

export const signUpSchema = z.object({
  email: emailSchema,
  password: newPasswordSchema,
  name: displayNameSchema,
});

/** Field messages of a failed parse, keyed by field (the first message per field). */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) out[String(issue.path[0] ?? "_")] ??= issue.message;
  return out;
}
