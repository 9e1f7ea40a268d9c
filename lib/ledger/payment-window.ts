import "server-only";
import { Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import { HARD_DECLINE_CODES, isHardDecline } from "@/lib/payments/declines";

/**
 * The recovery window of a failed payment (DESIGN §1 "failed payments"), in one place. A charge that
 * fails after the tip opens it once (the database stamps `paymentFailedAt`, migration
 * payment_recovery); it closes `PAYMENT_RECOVERY_DAYS` later or when the event starts, whichever is
 * first. Inside it the backer is reminded every 48 hours, a soft decline is retried once by itself a
 * day after it failed (an organizer's manual charge counts as that retry), and the backer may pay
 * with another card. After it the pledge is dropped (lib/charging/recovery-pass.ts) and never charged.
 *
 * The window is checked when a charge is CLAIMED. A claim taken inside it whose process died is
 * re-driven later with its own idempotency key even if the window closed meanwhile: that is how the
 * outcome of a request already sent is learned, and the decision to charge was made in time.
 */

export const REMINDER_EVERY_MS = 48 * 3_600_000;
export const AUTO_RETRY_AFTER_MS = 24 * 3_600_000;
/** One automatic retry: the first attempt and the retry are the only off-session charges of a pledge. */
export const MAX_OFF_SESSION_ATTEMPTS = 2;

export const recoveryDays = () => env().PAYMENT_RECOVERY_DAYS;

/** When a backer whose payment failed at `failedAt` must have paid by. */
export function paymentDueBy(failedAt: Date, startsAt: Date | null): Date {
  const due = new Date(failedAt.getTime() + recoveryDays() * 86_400_000);
  return startsAt && startsAt < due ? startsAt : due;
}

/** A pledge's pay-by time, or null when no payment of it has failed. */
export const pledgeDueBy = (p: { paymentFailedAt: Date | null; campaign: { startsAt: Date | null } }) =>
  p.paymentFailedAt ? paymentDueBy(p.paymentFailedAt, p.campaign.startsAt) : null;

const at = (when?: Date) => (when ? Prisma.sql`${when}::timestamptz` : Prisma.sql`clock_timestamp()`);

/**
 * SQL: the pledge under alias `p` may still be charged at `when` (default: the database's clock, as
 * every charge claim uses) — no failure yet, or its window still open.
 */
export function stillPayableSql(p: string, when?: Date): Prisma.Sql {
  const a = Prisma.raw(p);
  return Prisma.sql`(${a}."paymentFailedAt" IS NULL OR (${a}."paymentFailedAt" + make_interval(days => ${recoveryDays()}::int) > ${at(when)}
    AND NOT EXISTS (SELECT 1 FROM "Campaign" wc WHERE wc."id" = ${a}."campaignId" AND wc."startsAt" <= ${at(when)})))`;
}

/** SQL: a failed charge under alias `p` that gets its one automatic retry (a soft decline not retried yet). */
export function softRetrySql(p: string): Prisma.Sql {
  const a = Prisma.raw(p);
  return Prisma.sql`(${a}."chargeStatus" = 'failed' AND ${a}."chargeAttempts" < ${MAX_OFF_SESSION_ATTEMPTS}
    AND (${a}."chargeFailureCode" IS NULL OR ${a}."chargeFailureCode" NOT IN (${Prisma.join([...HARD_DECLINE_CODES])})))`;
}

/**
 * Where a pledge is in the window, for the manage page and the backer's own views: `retrying` (a
 * soft decline that will be retried by itself), `awaiting_card` (only the backer's new card can
 * settle it), `dropped` (the window closed unpaid), or null (no failed payment).
 */
export type RecoveryPhase = "retrying" | "awaiting_card" | "dropped";

export function recoveryPhase(p: {
  chargeStatus: string;
  chargeAttempts: number;
  chargeFailureCode: string | null;
  droppedAt: Date | null;
}): RecoveryPhase | null {
  if (p.droppedAt) return "dropped";
  if (p.chargeStatus === "requires_action") return "awaiting_card";
  if (p.chargeStatus !== "failed") return null;
  return p.chargeAttempts < MAX_OFF_SESSION_ATTEMPTS && !isHardDecline(p.chargeFailureCode)
    ? "retrying"
    : "awaiting_card";
}
