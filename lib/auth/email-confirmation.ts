import "server-only";
import { CONFIRM_EMAIL_KEY } from "@/lib/email/schema";
import { z } from "zod";
import { db, type Prisma } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { kickEmailSender, queueEmail } from "@/lib/email/service";
import { renderEmail } from "@/lib/email/render";
import { consume, minutesText } from "@/lib/rate-limit/service";
import { applyAdminEmails } from "@/lib/auth/admins";
import { dropEarlierHolderMoneySetup } from "@/lib/payouts/accounts";
import { hashPassword } from "@/lib/auth/password";
import {
  AUTH_TEXT,
  CONFIRM_TEXT,
  newPasswordSchema,
  PASSWORD_MAX,
  tooManyAttemptsText,
} from "@/lib/auth/schema";
import { hashLinkToken, linkTokenSchema, newLinkToken } from "@/lib/auth/link-token";

/**
 * Email confirmation (DESIGN §1 "admins", issue 13 item 5, issue 31 item 3). A password sign-up proves
 * nothing about its address, so the link this module emails at sign-up confirms it. Following the
 * link proves who reads the inbox, not who chose the password typed at sign-up (someone may have
 * registered another person's address first), so the person confirming sets the account's password
 * there: confirming sets it, marks it set through an emailed link (User.passwordSetViaEmailAt, which
 * ADMIN_EMAILS needs: lib/auth/admins.ts) and ends every session of the account. A confirmation
 * without a password is refused. The link carries a random token; only its SHA-256 is stored
 * (VerificationToken), it expires after a day and works once. Confirmation emails are never shown on
 * /admin/emails (lib/email/queries masks CONFIRM_EMAIL_KEY).
 */
export { CONFIRM_EMAIL_KEY };
const CONFIRMATION_TTL_MS = 24 * 3600_000;
const RESEND_LIMIT = { limit: 3, windowMs: 60 * 60_000 };
/** Confirmation attempts per client address (issue 31): the form is public and a good one costs an argon2id hash. */
export const CONFIRM_PER_IP = { limit: 20, windowMs: 15 * 60_000 };

export { CONFIRM_TEXT };

const identifier = (userId: string) => `${CONFIRM_EMAIL_KEY}${userId}`;

/** Stores a new confirmation token for the user and queues its email, in the caller's transaction; returns the token (the link's secret). */
export async function queueEmailConfirmation(
  tx: Prisma.TransactionClient,
  user: { id: string; email: string },
): Promise<string> {
  const token = newLinkToken();
  await tx.verificationToken.create({
    data: {
      identifier: identifier(user.id),
      token: hashLinkToken(token),
      expires: new Date(Date.now() + CONFIRMATION_TTL_MS),
    },
  });
  const url = `${appUrl()}/verify-email?token=${token}`;
  await queueEmail(tx, {
    dedupeKey: `${CONFIRM_EMAIL_KEY}${user.id}:${hashLinkToken(token).slice(0, 16)}`,
    to: user.email,
    subject: "Confirm your email address for PactNexus",
    ...renderEmail({
      heading: "Confirm your email address",
      paragraphs: [
        "Please confirm that this address is yours and choose the password for your account. The link works once and expires in 24 hours.",
        "If you did not create a PactNexus account, ignore this email.",
      ],
      action: { label: "Confirm my email", url },
    }),
  });
  return token;
}

/** The address a token would confirm now (the page shows its form only then), else null. */
export async function confirmationEmailFor(token: unknown): Promise<string | null> {
  const parsed = linkTokenSchema.safeParse(token);
  if (!parsed.success) return null;
  const row = await db.verificationToken.findUnique({
    where: { token: hashLinkToken(parsed.data) },
    select: { identifier: true, expires: true },
  });
  if (!row || !row.identifier.startsWith(CONFIRM_EMAIL_KEY) || row.expires.getTime() <= Date.now())
    return null;
  const user = await db.user.findUnique({
    where: { id: row.identifier.slice(CONFIRM_EMAIL_KEY.length) },
    select: { email: true },
  });
  return user?.email ?? null;
}

const confirmSchema = z
  .object({
    token: linkTokenSchema,
    password: newPasswordSchema,
    passwordConfirm: z.string({ error: AUTH_TEXT.passwordRequired }).max(PASSWORD_MAX, CONFIRM_TEXT.mismatch),
  })
  .strict()
  .refine((v) => v.password === v.passwordConfirm, {
    message: CONFIRM_TEXT.mismatch,
    path: ["passwordConfirm"],
  });

/**
 * The confirmation page's form: the token, the new password and the same again. Confirms the address
 * the token was sent to (once: of two concurrent uses, one wins), sets the password (argon2id), marks
 * it set through an emailed link, ends every session of the account, then applies ADMIN_EMAILS.
 * Returns the account's email (the page signs the confirmer in with the new password). A bad, used
 * or expired token, or a password that breaks the rules, changes nothing; a token is looked up
 * before the password is hashed, and each client address has CONFIRM_PER_IP attempts.
 */
export async function confirmEmail(
  input: unknown,
  ctx: { ip: string | null } = { ip: null },
): Promise<{ email: string }> {
  const parsed = confirmSchema.safeParse(input);
  if (!parsed.success) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of parsed.error.issues) {
      const key = String(issue.path[0] ?? "_");
      if (key === "password" || key === "passwordConfirm") fieldErrors[key] ??= issue.message;
    }
    const first = fieldErrors.password ?? fieldErrors.passwordConfirm;
    // a form without a usable token (or with unknown fields) is not a confirmation at all
    const tokenOk = linkTokenSchema.safeParse((input as { token?: unknown } | null)?.token).success;
    if (!first || !tokenOk) throw new AppError("BAD_REQUEST", CONFIRM_TEXT.invalid);
    throw new AppError("BAD_REQUEST", first, fieldErrors);
  }
  if (ctx.ip)
    await consume({ key: `confirm-email:ip:${ctx.ip}`, ...CONFIRM_PER_IP }, (ms) =>
      tooManyAttemptsText(minutesText(ms)),
    );
  // a token that would not confirm anything is refused before the (memory-hard) hash
  const live = await db.verificationToken.findUnique({
    where: { token: hashLinkToken(parsed.data.token) },
    select: { identifier: true, expires: true },
  });
  if (!live || !live.identifier.startsWith(CONFIRM_EMAIL_KEY) || live.expires.getTime() <= Date.now())
    throw new AppError("BAD_REQUEST", CONFIRM_TEXT.invalid);
  const passwordHash = await hashPassword(parsed.data.password);
  const user = await db.$transaction(async (tx) => {
    // DELETE … RETURNING: of two concurrent confirmations, one gets the row (single use)
    const rows = await tx.$queryRaw<{ identifier: string; expires: Date }[]>`
      DELETE FROM "VerificationToken" WHERE token = ${hashLinkToken(parsed.data.token)} AND identifier LIKE ${`${CONFIRM_EMAIL_KEY}%`} RETURNING identifier, expires`;
    const row = rows[0];
    if (!row || row.expires.getTime() <= Date.now()) return null;
    const userId = row.identifier.slice(CONFIRM_EMAIL_KEY.length);
    const now = new Date();
    // never confirmed before (a Google sign-in may have confirmed it since the link was sent): what
    // the earlier holder set up that could carry money goes (lib/payouts/accounts.ts)
    const [before] = await tx.$queryRaw<{ emailVerified: Date | null }[]>`
      SELECT "emailVerified" FROM "User" WHERE id = ${userId} FOR UPDATE`;
    if (before && before.emailVerified === null) await dropEarlierHolderMoneySetup(tx, userId);
    const [updated] = await tx.user.updateManyAndReturn({
      where: { id: userId },
      // the session version moves: whoever held the account before (the password chosen at sign-up) is signed out
      data: {
        passwordHash,
        passwordSetViaEmailAt: now,
        emailVerified: now,
        sessionVersion: { increment: 1 },
      },
      select: { id: true, email: true },
    });
    await tx.verificationToken.deleteMany({ where: { identifier: row.identifier } });
    return updated ?? null;
  });
  if (!user) throw new AppError("BAD_REQUEST", CONFIRM_TEXT.invalid);
  await applyAdminEmails(user);
  return { email: user.email };
}

/** "Resend confirmation email" on the profile: the signed-in user, a few times an hour. */
export async function resendEmailConfirmation(viewer: { id: string } | null): Promise<string> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const user = await db.user.findUnique({
    where: { id: viewer.id },
    select: { id: true, email: true, emailVerified: true },
  });
  if (!user) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (user.emailVerified) return CONFIRM_TEXT.alreadyConfirmed;
  await consume(
    { key: `confirm-email:resend:${user.id}`, ...RESEND_LIMIT },
    (ms) => `Too many confirmation emails. Please try again in ${minutesText(ms)}.`,
  );
  await db.$transaction((tx) => queueEmailConfirmation(tx, user));
  await kickEmailSender();
  return CONFIRM_TEXT.sent;
}

/** Whether the user's address is confirmed (the profile offers to resend the link until it is). */
export async function isEmailConfirmed(userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { emailVerified: true } });
  return Boolean(user?.emailVerified);
}
