import "server-only";
import { db, Prisma } from "@/lib/db";
import { livePledgeSql, statusIn } from "@/lib/events/sql";
import { CONFIRMED_STATUSES } from "@/lib/events/lifecycle";
import type { PaymentGateway } from "@/lib/payments/types";
import { kickEmailSender, queueEmails } from "@/lib/email/service";
import { chargeCampaign } from "@/lib/charging/run";
import { pledgeStatesIn, RECOVERABLE_STATES } from "@/lib/ledger/pledge-state";
import {
  AUTO_RETRY_AFTER_MS,
  REMINDER_EVERY_MS,
  softRetrySql,
  stillPayableSql,
} from "@/lib/ledger/payment-window";
import { paymentFailedEmail, paymentSelect, withSeats, type PaymentRow } from "@/lib/charging/notify";
import type { QueuedEmail } from "@/lib/email/schema";
import { dropUnpaidPledge } from "@/lib/charging/drop-unpaid";

/**
 * The recovery pass (DESIGN §1 "failed payments"), run every few minutes by the job and safe to run
 * on any number of instances at once. In this order:
 *  1. windows that closed unpaid are dropped (lib/charging/drop-unpaid.ts), so nothing
 *     after the window — a retry or a reminder — ever reaches them;
 *  2. soft declines a day old get their one automatic retry, through the charging pipeline's claim
 *     (lib/charging/run.ts), so it races safely with the backer's own payment, a manual charge and
 *     the webhook: whoever claims the pledge first charges it, with its own idempotency key;
 *  3. a failure whose own email never went out (a crash, an authentication left unfinished) gets it
 *     after 15 minutes;
 *  4. pledges still due get a reminder every 48 hours: stamped and queued in one transaction,
 *     oldest first, each batch leaving the set it was taken from, so none can starve the others.
 * `now` is the pass's clock (tests move it); charges themselves are only ever claimed against the
 * database's clock.
 */
export type RecoveryCounts = {
  dropped: number;
  retried: number;
  failedAgain: number;
  /** first failure notices this pass queued (those the failure itself did not) */
  noticed: number;
  reminded: number;
};

const BATCH = 200;
const MAX_BATCHES = 25;

/** A live pledge whose payment failed, of an event that is happening (a cancelled one charges nobody). */
const inRecovery = (p: string) =>
  Prisma.sql`${livePledgeSql(p)} AND ${Prisma.raw(p)}."chargeStatus" IN (${pledgeStatesIn(RECOVERABLE_STATES)})
    AND EXISTS (SELECT 1 FROM "Campaign" rc WHERE rc."id" = ${Prisma.raw(p)}."campaignId" AND rc."status" IN (${statusIn(CONFIRMED_STATUSES)}))`;

/** Issue 37: a group's one payment is followed on its first seat (its other seats drop and are told with it). */
const payerSeat = (p: string) =>
  Prisma.sql`(${Prisma.raw(p)}."chargeUnitId" IS NULL OR ${Prisma.raw(p)}."chargeUnitId" = ${Prisma.raw(p)}."id")`;

/** The failure email is sent when the charge fails; this one catches any that was not (a crash between the two, or a bank's authentication left unfinished in the commit dialog). */
const FIRST_NOTICE_AFTER_MS = 15 * 60_000;

export async function runPaymentRecovery(
  opts: { now?: Date; gateway?: PaymentGateway } = {},
): Promise<RecoveryCounts> {
  const now = opts.now ?? new Date();
  const counts: RecoveryCounts = { dropped: 0, retried: 0, failedAgain: 0, noticed: 0, reminded: 0 };

  for (let b = 0; b < MAX_BATCHES; b++) {
    const closed = await db.$queryRaw<{ id: string }[]>`
      SELECT p."id" FROM "Pledge" p
      WHERE ${inRecovery("p")} AND NOT ${stillPayableSql("p", now)} AND ${payerSeat("p")}
      ORDER BY p."paymentFailedAt" ASC, p."id" ASC LIMIT ${BATCH}`;
    let moved = 0;
    for (const { id } of closed) {
      try {
        if (await dropUnpaidPledge(id, now, opts.gateway)) moved++;
      } catch (err) {
        // the provider could not cancel a payment waiting for authentication: the next pass tries again
        console.warn(`[recovery] drop of ${id} deferred: ${(err as Error).message}`);
      }
    }
    counts.dropped += moved;
    // a pledge being paid right now is not dropped; the next pass looks again
    if (closed.length < BATCH || moved === 0) break;
  }

  const failedBefore = new Date(now.getTime() - AUTO_RETRY_AFTER_MS);
  const retry = await db.$queryRaw<{ campaignId: string }[]>`
    SELECT p."campaignId" FROM "Pledge" p
    WHERE ${inRecovery("p")} AND ${softRetrySql("p")} AND p."paymentFailedAt" <= ${failedBefore}
      AND ${stillPayableSql("p", now)}
    GROUP BY p."campaignId" ORDER BY min(p."paymentFailedAt") ASC
    LIMIT 100`;
  for (const { campaignId } of retry) {
    const run = { charged: 0, failed: 0, unknown: 0 };
    await chargeCampaign(campaignId, { retryFailed: failedBefore, gateway: opts.gateway }, run);
    counts.retried += run.charged;
    counts.failedAgain += run.failed;
  }

  // The first notice, where the failure's own email did not go out: stamped as sent at the failure,
  // so the 48-hour reminders keep their rhythm; the dedupe key makes it a no-op where it did.
  const noticeBefore = new Date(now.getTime() - FIRST_NOTICE_AFTER_MS);
  ({ queued: counts.noticed } = await stampAndEmail(
    Prisma.sql`
      UPDATE "Pledge" AS p SET "paymentRemindedAt" = p."paymentFailedAt"
      WHERE p."id" IN (
        SELECT q."id" FROM "Pledge" q
        WHERE ${inRecovery("q")} AND ${payerSeat("q")} AND q."paymentRemindedAt" IS NULL AND q."paymentFailedAt" <= ${noticeBefore}
        ORDER BY q."paymentFailedAt" ASC LIMIT ${BATCH * 5} FOR UPDATE SKIP LOCKED)
      RETURNING p."id"`,
    (p) => paymentFailedEmail(p),
  ));

  const remindBefore = new Date(now.getTime() - REMINDER_EVERY_MS);
  for (let b = 0; b < MAX_BATCHES; b++) {
    const { stamped } = await stampAndEmail(
      Prisma.sql`
        WITH due AS (
          SELECT p."id" FROM "Pledge" p
          WHERE ${inRecovery("p")} AND ${stillPayableSql("p", now)} AND ${payerSeat("p")}
            AND COALESCE(p."paymentRemindedAt", p."paymentFailedAt") <= ${remindBefore}
          ORDER BY COALESCE(p."paymentRemindedAt", p."paymentFailedAt") ASC, p."id" ASC
          LIMIT ${BATCH} FOR UPDATE SKIP LOCKED)
        UPDATE "Pledge" AS p SET "paymentRemindedAt" = ${now} FROM due WHERE p."id" = due."id"
        RETURNING p."id"`,
      // the reminder's number: how many 48-hour periods since the failure (one email each)
      (p) =>
        paymentFailedEmail(
          p,
          Math.max(1, Math.floor((now.getTime() - (p.paymentFailedAt ?? now).getTime()) / REMINDER_EVERY_MS)),
        ),
    );
    counts.reminded += stamped;
    if (stamped < BATCH) break;
  }

  if (counts.dropped + counts.noticed + counts.reminded > 0) await kickEmailSender();
  return counts;
}

/**
 * Stamps a batch of pledges (an UPDATE … RETURNING "id") and queues an email for each, in one
 * transaction: a pledge is stamped exactly when its email is in the outbox.
 */
async function stampAndEmail(
  stamp: Prisma.Sql,
  email: (p: PaymentRow) => QueuedEmail,
): Promise<{ stamped: number; queued: number }> {
  return db.$transaction(async (tx) => {
    const due = await tx.$queryRaw<{ id: string }[]>(stamp);
    if (due.length === 0) return { stamped: 0, queued: 0 };
    const rows = await tx.pledge.findMany({
      where: { id: { in: due.map((d) => d.id) } },
      select: paymentSelect,
    });
    return { stamped: due.length, queued: await queueEmails(tx, (await withSeats(tx, rows)).map(email)) };
  });
}
