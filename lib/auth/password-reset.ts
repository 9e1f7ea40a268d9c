import "server-only";
import { RESET_PASSWORD_KEY } from "@/lib/email/schema";
import crypto from "node:crypto";
import { z } from "zod";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import { kickEmailSender, queueEmail } from "@/lib/email/service";
import { renderEmail } from "@/lib/email/render";
import { consume, minutesText } from "@/lib/rate-limit/service";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import {
  AUTH_TEXT,
  emailSchema,
  newPasswordSchema,
  RESET_TEXT,
  tooManyAttemptsText,
} from "@/lib/auth/schema";
import { applyAdminEmails } from "@/lib/auth/admins";
import { hashLinkToken, linkTokenSchema, newLinkToken } from "@/lib/auth/link-token";

/**
 * Password reset and change (issue 18 item 5). "Forgot password?" emails a single-use link: a
 * random token of which only the SHA-256 is stored (VerificationToken, like email confirmation),
 * valid for an hour, answered the same way whether or not the account exists, rate-limited per
 * address and per network. Using it sets the new password and ends every session (the session
 * version moves). Reset emails are never shown on /admin/emails (lib/email/queries masks
 * RESET_PASSWORD_KEY); without SMTP, an operator makes a link with `npm run user:admin -- <email>
 * --reset-link`. A Google-only account is told, by email, that it signs in with Google.
 */
export { RESET_PASSWORD_KEY };
const RESET_TTL_MS = 60 * 60_000;
const PER_EMAIL = { limit: 3, windowMs: 60 * 60_000 };
const PER_IP = { limit: 10, windowMs: 60 * 60_000 };
/** Uses of reset links per client address (issue 31): the form is public and a good one costs an argon2id hash. */
export const RESET_USES_PER_IP = { limit: 20, windowMs: 15 * 60_000 };

export { RESET_TEXT };

const identifier = (userId: string) => `${RESET_PASSWORD_KEY}${userId}`;

const requestSchema = z.object({ email: emailSchema }).strict();
const resetSchema = z.object({ token: linkTokenSchema, password: newPasswordSchema }).strict();
const changeSchema = z
  .object({
    currentPassword: z.string().min(1, AUTH_TEXT.passwordRequired).max(200),
    password: newPasswordSchema,
  })
  .strict();

/** A new reset link for the user (the previous ones stop working). */
async function newResetLink(userId: string): Promise<string> {
  const token = newLinkToken();
  await db.$transaction([
    db.verificationToken.deleteMany({ where: { identifier: identifier(userId) } }),
    db.verificationToken.create({
      data: {
        identifier: identifier(userId),
        token: hashLinkToken(token),
        expires: new Date(Date.now() + RESET_TTL_MS),
      },
    }),
  ]);
  return `${appUrl()}/reset-password?token=${token}`;
}

/**
 * Runs `task` after the answer is sent. The action passes Next's `after`; without one (tests, the
 * CLI) the task runs before returning.
 */
export type Defer = (task: () => Promise<void>) => void;

/**
 * "Forgot password?": always the same answer; an email goes out only when the account exists.
 * Issue 31: the answer must not tell, by its timing, whether the account exists (215 ms against
 * 98 ms was measured). So the request does the same work on every path — parse and the two rate
 * limits — and everything that depends on the account (the lookup, a new link, the email) runs
 * after the answer through `defer`. A lost deferred task (the process dies in between) loses one
 * email; the person asks again.
 */
export async function requestPasswordReset(
  input: unknown,
  ctx: { ip: string | null; defer?: Defer },
): Promise<string> {
  const { email } = parseInput(requestSchema, input);
  const tooMany = (ms: number) => RESET_TEXT.tooMany(minutesText(ms));
  await consume({ key: `reset:email:${email}`, ...PER_EMAIL }, tooMany);
  if (ctx.ip) await consume({ key: `reset:ip:${ctx.ip}`, ...PER_IP }, tooMany);
  const task = () => emailResetLink(email);
  if (ctx.defer) ctx.defer(task);
  else await task();
  return RESET_TEXT.sent;
}

/** The account-dependent half of a reset request: nothing for an unknown address. */
async function emailResetLink(email: string): Promise<void> {
  const user = await db.user.findUnique({
    where: { email },
    select: { id: true, email: true, passwordHash: true },
  });
  if (!user) return;
  const stamp = crypto.randomBytes(6).toString("hex");
  if (!user.passwordHash) {
    await queueEmail(db, {
      dedupeKey: `${RESET_PASSWORD_KEY}${user.id}:${stamp}`,
      to: user.email,
      subject: "Signing in to PactNexus",
      ...renderEmail({
        heading: "You sign in with Google",
        paragraphs: [
          "Someone asked to reset the password of this PactNexus account. It has no password: it signs in with Google.",
          'Use "Continue with Google" on the sign-in page. If you did not ask, ignore this email.',
        ],
        action: { label: "Sign in", url: `${appUrl()}/profile` },
      }),
    });
  } else {
    const url = await newResetLink(user.id);
    await queueEmail(db, {
      dedupeKey: `${RESET_PASSWORD_KEY}${user.id}:${stamp}`,
      to: user.email,
      subject: "Reset your PactNexus password",
      ...renderEmail({
        heading: "Reset your password",
        paragraphs: [
          "Someone asked to reset the password of this PactNexus account. The link works once, within an hour.",
          "If you did not ask, ignore this email: your password stays as it is.",
        ],
        action: { label: "Choose a new password", url },
      }),
    });
  }
  await kickEmailSender();
}

/** Whether a reset token would be accepted now (the page shows its form only then). */
export async function isValidResetToken(token: unknown): Promise<boolean> {
  const parsed = linkTokenSchema.safeParse(token);
  if (!parsed.success) return false;
  const row = await db.verificationToken.findUnique({
    where: { token: hashLinkToken(parsed.data) },
    select: { identifier: true, expires: true },
  });
  return Boolean(row && row.identifier.startsWith(RESET_PASSWORD_KEY) && row.expires.getTime() > Date.now());
}

/**
 * Sets the new password with a reset token (once: of two concurrent uses, one wins), ends every
 * session, and — the link proved the address — confirms the email and marks the password set through
 * an emailed link (ADMIN_EMAILS needs it, issue 31). Returns the account's email.
 */
export async function resetPassword(
  input: unknown,
  ctx: { ip: string | null } = { ip: null },
): Promise<{ email: string }> {
  const parsed = resetSchema.safeParse(input);
  if (!parsed.success) {
    const passwordIssue = parsed.error.issues.find((i) => i.path[0] === "password");
    if (passwordIssue)
      throw new AppError("BAD_REQUEST", passwordIssue.message, { password: passwordIssue.message });
    throw new AppError("BAD_REQUEST", RESET_TEXT.invalid);
  }
  if (ctx.ip)
    await consume({ key: `reset-use:ip:${ctx.ip}`, ...RESET_USES_PER_IP }, (ms) =>
      tooManyAttemptsText(minutesText(ms)),
    );
  // a link that would not reset anything is refused before the (memory-hard) hash
  const live = await db.verificationToken.findUnique({
    where: { token: hashLinkToken(parsed.data.token) },
    select: { identifier: true, expires: true },
  });
  if (!live || !live.identifier.startsWith(RESET_PASSWORD_KEY) || live.expires.getTime() <= Date.now())
    throw new AppError("BAD_REQUEST", RESET_TEXT.invalid);
  const passwordHash = await hashPassword(parsed.data.password);
  const user = await db.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<{ identifier: string; expires: Date }[]>`
      DELETE FROM "VerificationToken" WHERE token = ${hashLinkToken(parsed.data.token)} AND identifier LIKE ${`${RESET_PASSWORD_KEY}%`} RETURNING identifier, expires`;
    const row = rows[0];
    if (!row || row.expires.getTime() <= Date.now()) return null;
    const userId = row.identifier.slice(RESET_PASSWORD_KEY.length);
    await tx.verificationToken.deleteMany({ where: { identifier: row.identifier } });
    const now = new Date();
    const [updated] = await tx.user.updateManyAndReturn({
      where: { id: userId },
      // set through an emailed link: the password is the inbox owner's, so ADMIN_EMAILS may apply (lib/auth/admins.ts)
      data: {
        passwordHash,
        passwordSetViaEmailAt: now,
        sessionVersion: { increment: 1 },
        emailVerified: now,
      },
      select: { id: true, email: true },
    });
    return updated ?? null;
  });
  if (!user) throw new AppError("BAD_REQUEST", RESET_TEXT.invalid);
  await applyAdminEmails(user);
  return { email: user.email };
}

/**
 * Change password on the profile: the current one must be right; every session ends (the caller
 * signs the current browser in again with the new password, which re-issues its session).
 */
export async function changePassword(
  viewer: { id: string } | null,
  input: unknown,
): Promise<{ email: string }> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { currentPassword, password } = parseInput(changeSchema, input);
  const user = await db.user.findUnique({
    where: { id: viewer.id },
    select: { id: true, email: true, passwordHash: true, sessionVersion: true },
  });
  if (!user) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (!user.passwordHash) throw new AppError("BAD_REQUEST", RESET_TEXT.googleOnly);
  await consume(
    { key: `change-password:${user.id}`, limit: 5, windowMs: 15 * 60_000 },
    (ms) => `Too many attempts. Try again in ${minutesText(ms)}.`,
  );
  if (!(await verifyPassword(user.passwordHash, currentPassword)))
    throw new AppError("BAD_REQUEST", RESET_TEXT.wrongCurrent, { currentPassword: RESET_TEXT.wrongCurrent });
  const { count } = await db.user.updateMany({
    where: { id: user.id, sessionVersion: user.sessionVersion },
    data: { passwordHash: await hashPassword(password), sessionVersion: { increment: 1 } },
  });
  if (count === 0) throw new AppError("CONFLICT", "Please sign in again and retry.");
  await db.verificationToken.deleteMany({ where: { identifier: identifier(user.id) } });
  return { email: user.email };
}

/** The operator's reset link (admin CLI, when no SMTP delivers the email). */
export async function resetLinkFor(email: string): Promise<string> {
  const user = await db.user.findUnique({ where: { email }, select: { id: true, passwordHash: true } });
  if (!user) throw new AppError("NOT_FOUND", `No account found with ${email}`);
  if (!user.passwordHash)
    throw new AppError("BAD_REQUEST", `${email} signs in with Google; it has no password.`);
  return newResetLink(user.id);
}

/** Whether the account has a password (a Google-only one has none to change). */
export async function hasPassword(userId: string): Promise<boolean> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { passwordHash: true } });
  return Boolean(user?.passwordHash);
}
