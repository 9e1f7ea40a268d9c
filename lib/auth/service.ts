import "server-only";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import {
  AUTH_TEXT,
  normalizeEmail,
  signInSchema,
  signUpSchema,
  tooManyAttemptsText,
  tooManySignUpsText,
} from "@/lib/auth/schema";
import { db, Prisma } from "@/lib/db";
import { applyAdminEmails } from "@/lib/auth/admins";
import { dropEarlierHolderMoneySetup } from "@/lib/payouts/accounts";
import { queueEmailConfirmation } from "@/lib/auth/email-confirmation";
import { kickEmailSender } from "@/lib/email/service";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import { consume, minutesText } from "@/lib/rate-limit/service";
import { rateLimitsDisabled } from "@/lib/env";

export { normalizeEmail };

export type SessionUser = { id: string; email: string; name: string | null };

/** Who is asking, as far as rate limits care (lib/auth/client-ip.ts). */
type RequestContext = { ip: string | null };

const SIGN_IN_WINDOW_MS = 15 * 60_000;
export const SIGN_IN_FAILS_PER_EMAIL = 5;
export const SIGN_IN_FAILS_PER_IP = 20;
export const SIGN_UPS_PER_IP = 10;
const SIGN_UP_WINDOW_MS = 60 * 60_000;

const failKeys = (email: string, ip: string | null) =>
  [`signin-fail:email:${email}`, ...(ip ? [`signin-fail:ip:${ip}`] : [])].sort(); // sorted: one lock order, no deadlock

/**
 * Books one sign-in attempt as a failure before the password is looked at, refusing it (without
 * any password check) when the email already has 5 failures, or the IP 20, in the last 15 minutes.
 * Booking first, under an advisory lock per key, is what makes the limit hold against parallel
 * guesses: counting only after a failed check would let a burst of concurrent requests all pass
 * the count. A successful sign-in takes its booking back (releaseAttempt).
 */
async function bookAttempt(email: string, ip: string | null): Promise<bigint[]> {
  if (rateLimitsDisabled()) return [];
  const limits = new Map([
    [`signin-fail:email:${email}`, SIGN_IN_FAILS_PER_EMAIL],
    ...(ip ? ([[`signin-fail:ip:${ip}`, SIGN_IN_FAILS_PER_IP]] as const) : []),
  ]);
  const keys = failKeys(email, ip);
  return db.$transaction(async (tx) => {
    for (const key of keys) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${key}))`;
    const since = new Date(Date.now() - SIGN_IN_WINDOW_MS);
    let retryAfterMs = -1;
    for (const key of keys) {
      const hits = await tx.rateLimitHit.findMany({
        where: { key, createdAt: { gt: since } },
        select: { createdAt: true },
        orderBy: { createdAt: "desc" },
        take: limits.get(key)!,
      });
      if (hits.length >= limits.get(key)!) {
        // the window frees a slot when the oldest of the last `limit` failures leaves it
        const oldest = hits[hits.length - 1].createdAt.getTime();
        retryAfterMs = Math.max(retryAfterMs, oldest + SIGN_IN_WINDOW_MS - Date.now());
      }
    }
    if (retryAfterMs >= 0) throw new AppError("RATE_LIMITED", tooManyAttemptsText(minutesText(retryAfterMs)));
    const ids: bigint[] = [];
    for (const key of keys)
      ids.push((await tx.rateLimitHit.create({ data: { key }, select: { id: true } })).id);
    return ids;
  });
}

async function releaseAttempt(hitIds: bigint[]) {
  if (hitIds.length) await db.rateLimitHit.deleteMany({ where: { id: { in: hitIds } } });
}

export { applyAdminEmails };

/**
 * Email/password sign-in with SPEC §8 texts. Throttled per email and per IP (bookAttempt);
 * a refused attempt never reaches the password check.
 */
export async function verifyPasswordSignIn(
  input: unknown,
  ctx: RequestContext = { ip: null },
): Promise<SessionUser> {
  const { email, password } = parseInput(signInSchema, input);
  const booking = await bookAttempt(email, ctx.ip);
  const user = await db.user.findUnique({
    where: { email },
    select: { id: true, email: true, name: true, passwordHash: true },
  });
  if (!user) throw new AppError("UNAUTHENTICATED", AUTH_TEXT.noAccount);
  if (!user.passwordHash) throw new AppError("UNAUTHENTICATED", AUTH_TEXT.googleOnly);
  if (!(await verifyPassword(user.passwordHash, password)))
    throw new AppError("UNAUTHENTICATED", AUTH_TEXT.incorrectPassword);
  await releaseAttempt(booking);
  await applyAdminEmails(user);
  return { id: user.id, email: user.email, name: user.name };
}

/**
 * Creates an email/password account (the caller then signs it in). Emails are stored trimmed and
 * lower-cased, so the same address in another case is "Email already in use". Sign-ups are limited
 * per IP; the limit is counted after validation so a typo does not use it up.
 */
export async function signUp(input: unknown, ctx: RequestContext = { ip: null }): Promise<SessionUser> {
  const { email, password, name } = parseInput(signUpSchema, input);
  if (ctx.ip) {
    await consume({ key: `signup:ip:${ctx.ip}`, limit: SIGN_UPS_PER_IP, windowMs: SIGN_UP_WINDOW_MS }, (ms) =>
      tooManySignUpsText(minutesText(ms)),
    );
  }
  const existing = await db.user.findUnique({ where: { email }, select: { id: true } });
  if (existing) throw new AppError("CONFLICT", AUTH_TEXT.emailInUse, { email: AUTH_TEXT.emailInUse });
  const passwordHash = await hashPassword(password);
  try {
    // The address is unconfirmed until its owner follows the emailed link (no admin before that).
    const user = await db.$transaction(async (tx) => {
      const created = await tx.user.create({
        data: { email, name, passwordHash },
        select: { id: true, email: true, name: true },
      });
      await queueEmailConfirmation(tx, created);
      return created;
    });
    await kickEmailSender();
    return user;
  } catch (err) {
    // a concurrent sign-up with the same email won the unique index
    if (isUniqueViolation(err)) {
      throw new AppError("CONFLICT", AUTH_TEXT.emailInUse, { email: AUTH_TEXT.emailInUse });
    }
    throw err;
  }
}

const isUniqueViolation = (e: unknown) =>
  (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") ||
  /23505|Unique constraint/i.test(String((e as Error)?.message));

/** Grants (or with `isAdmin: false` revokes) admin for an existing account: `npm run user:admin`. */
export async function setAdminByEmail(
  emailInput: string,
  isAdmin: boolean,
): Promise<{ email: string; changed: boolean }> {
  const email = normalizeEmail(emailInput);
  const user = await db.user.findUnique({ where: { email }, select: { id: true, isAdmin: true } });
  if (!user) throw new AppError("NOT_FOUND", `No user with the email ${email}. They must sign up first.`);
  if (user.isAdmin === isAdmin) return { email, changed: false };
  await db.user.update({ where: { id: user.id }, data: { isAdmin } });
  return { email, changed: true };
}

/**
 * Ends every session of a user: session tokens carry the version current when they were issued
 * (lib/auth/options.ts), and every reader compares it with the user's (getViewer, the proxy's
 * member-version query, /api/auth/session). Called on sign-out with the version of the token
 * signing out, so a token already ended cannot end the sessions that came after it.
 */
export async function endAllSessions(userId: string, fromVersion?: number): Promise<void> {
  await db.user.updateMany({
    where: { id: userId, ...(fromVersion === undefined ? {} : { sessionVersion: fromVersion }) },
    data: { sessionVersion: { increment: 1 } },
  });
}

/** Whether a Google email is the user's own address (issue 31: nothing else may verify it or join it). */
const isOwnAddress = (user: { email: string }, googleEmail: unknown) =>
  typeof googleEmail === "string" && googleEmail.trim() !== "" && normalizeEmail(googleEmail) === user.email;

/**
 * Google joined an existing user (NextAuth links accounts with the same Google-verified email).
 * If that user has a password and never confirmed the address, the password may be an attacker's
 * who registered the victim's address first: it is removed and every session of the account ends
 * (the session version moves, before this sign-in's own token is issued), and its payout account and
 * Stripe customer link go (dropEarlierHolderMoneySetup). Only when the Google
 * email is the user's address: a Google account of another address proves nothing about this one.
 */
export async function secureJoinedAccount(
  user: { id: string; email: string },
  googleEmail: unknown,
): Promise<void> {
  if (!isOwnAddress(user, googleEmail)) return;
  await db.$transaction(async (tx) => {
    const taken = await tx.user.updateMany({
      where: { id: user.id, emailVerified: null, passwordHash: { not: null } },
      data: { passwordHash: null, passwordSetViaEmailAt: null, sessionVersion: { increment: 1 } },
    });
    // and what the earlier holder set up that could carry money (their payout account, their Stripe customer)
    if (taken.count) await dropEarlierHolderMoneySetup(tx, user.id);
  });
}

/**
 * A Google sign-in: the address is verified (callbacks.signIn refuses unverified ones) when the Google
 * email is the user's own; then ADMIN_EMAILS applies — to an account without a password, or whose
 * password was set through an emailed link (lib/auth/admins.ts): a password chosen at sign-up and
 * confirmed before issue 31 still needs a reset link.
 */
export async function googleVerifiedEmail(
  user: { id: string; email: string },
  googleEmail: unknown,
): Promise<void> {
  if (!isOwnAddress(user, googleEmail)) return;
  await db.user.updateMany({
    where: { id: user.id, emailVerified: null },
    data: { emailVerified: new Date() },
  });
  await applyAdminEmails(user);
}
