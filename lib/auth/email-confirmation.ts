import "server-only";
import { db, type Prisma } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { kickEmailSender, queueEmail } from "@/lib/email/service";
import { renderEmail } from "@/lib/email/render";
import { consume, minutesText } from "@/lib/rate-limit/service";
import { applyAdminEmails } from "@/lib/auth/admins";
import { hashLinkToken, linkTokenSchema, newLinkToken } from "@/lib/auth/link-token";

/**
 * Email confirmation (DESIGN §1 "admins", issue 13 item 5): a password sign-up proves nothing about
 * its address, so ADMIN_EMAILS is granted only once the address is confirmed — by the link this
 * module emails at sign-up, or by Google reporting it verified. The link carries a random token;
 * only its SHA-256 is stored (VerificationToken), it expires after a day and works once.
 * Confirmation emails are never shown on /admin/emails (lib/email/queries masks CONFIRM_EMAIL_KEY).
 */
export const CONFIRM_EMAIL_KEY = "confirm-email:";
const CONFIRMATION_TTL_MS = 24 * 3600_000;
const RESEND_LIMIT = { limit: 3, windowMs: 60 * 60_000 };

export const CONFIRM_TEXT = {
  confirmed: "Your email address is confirmed.",
  invalid:
    "This confirmation link is not valid or has expired. Sign in and send a new one from your profile.",
  alreadyConfirmed: "Your email address is already confirmed.",
  sent: "We sent a confirmation link to your email address.",
} as const;

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
        "Please confirm that this address is yours. The link works once and expires in 24 hours.",
        "If you did not create a PactNexus account, ignore this email.",
      ],
      action: { label: "Confirm my email", url },
    }),
  });
  return token;
}

/** Whether a token is one that confirmEmail would accept now (the page shows its button only then). */
export async function isValidConfirmationToken(token: unknown): Promise<boolean> {
  const parsed = linkTokenSchema.safeParse(token);
  if (!parsed.success) return false;
  const row = await db.verificationToken.findUnique({
    where: { token: hashLinkToken(parsed.data) },
    select: { identifier: true, expires: true },
  });
  return Boolean(row && row.identifier.startsWith(CONFIRM_EMAIL_KEY) && row.expires.getTime() > Date.now());
}

/** Confirms the address the token was sent to (once), then applies ADMIN_EMAILS. False for a bad, used or expired token. */
export async function confirmEmail(token: unknown): Promise<boolean> {
  const parsed = linkTokenSchema.safeParse(token);
  if (!parsed.success) return false;
  const user = await db.$transaction(async (tx) => {
    // DELETE … RETURNING: of two concurrent confirmations, one gets the row (single use)
    const rows = await tx.$queryRaw<{ identifier: string; expires: Date }[]>`
      DELETE FROM "VerificationToken" WHERE token = ${hashLinkToken(parsed.data)} AND identifier LIKE ${`${CONFIRM_EMAIL_KEY}%`} RETURNING identifier, expires`;
    const row = rows[0];
    if (!row || row.expires.getTime() <= Date.now()) return null;
    const userId = row.identifier.slice(CONFIRM_EMAIL_KEY.length);
    const updated = await tx.user.updateManyAndReturn({
      where: { id: userId },
      data: { emailVerified: new Date() },
      select: { id: true, email: true },
    });
    await tx.verificationToken.deleteMany({ where: { identifier: row.identifier } });
    return updated[0] ?? null;
  });
  if (!user) return false;
  await applyAdminEmails(user);
  return true;
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
