import "server-only";
import { db, Prisma } from "@/lib/db";
import { livePledgeSql, memberPledgeSql, statusIn } from "@/lib/events/sql";
import { CONFIRMED_STATUSES, LIVE_PLEDGE, MEMBER_PLEDGE } from "@/lib/events/lifecycle";
import { softRetrySql, stillPayableSql } from "@/lib/ledger/payment-window";
import type { CardSummary, ChargeResult } from "@/lib/payments/types";
import { CHARGE_MOVEMENT_RETURNING, chargeMovementSql } from "@/lib/ledger/movements";

/**
 * The only writer of a pledge's charge state (issue 15). A pledge moves
 *
 *   none → processing (the CLAIM) → succeeded | failed | requires_action;
 *   failed | requires_action → processing (a retry, the backer's own payment) → …;
 *   succeeded → refunded (a refund: lib/ledger/refunds.ts); none → succeeded (a free event's confirmation).
 *
 * A success is the provider's word that money moved: recorded from any unsettled state. A failure
 * applies only to the attempt that failed. Each recorded outcome of a paid charge writes its money
 * row (lib/ledger, issue 32) in the same statement. Card release lives with the ledger too.
 *
 * Who holds a place — withdrawn, dropped, waiting, promoted — is beside the charge state and written
 * by lib/campaigns/places.ts; nothing charges a pledge that is withdrawn or waiting (LIVE_PLEDGE).
 */

export { LIVE_PLEDGE, livePledgeSql };
export const PLEDGE_CHARGE_STATES = [
  "none",
  "processing",
  "succeeded",
  "failed",
  "requires_action",
  "refunded",
] as const;
export type PledgeChargeState = (typeof PLEDGE_CHARGE_STATES)[number];

/** A charge that did not go through and that the backer can still pay (DESIGN §1 "failed payments"). */
export const RECOVERABLE_STATES = ["failed", "requires_action"] as const;
/** The states a charge attempt ends in (what a charge summary reports). */
export const OUTCOME_STATES = ["succeeded", ...RECOVERABLE_STATES] as const;
/** A success is recorded from any of these (not over an earlier success, nor after a refund). */
export const SUCCESS_MAY_FOLLOW = ["none", "processing", ...RECOVERABLE_STATES] as const;
/** Money moved for these (a refund follows a success): what a payout counts as collected. */
export const SETTLED_STATES = ["succeeded", "refunded"] as const;
/** Not charged yet, or a charge in flight: a campaign with such a pledge is not finished charging. */
export const OPEN_STATES = ["none", "processing"] as const;

/** A set of states as an SQL `IN` list, e.g. `"chargeStatus" IN (${pledgeStatesIn(OPEN_STATES)})`. */
export const pledgeStatesIn = (set: readonly PledgeChargeState[]) =>
  Prisma.join(set.map((s) => Prisma.sql`${s}::"PledgeChargeStatus"`));

export const isRecoverable = (state: string) => (RECOVERABLE_STATES as readonly string[]).includes(state);

/** A pledge whose charge is claimed but not recorded for this long is presumed abandoned (crash). */
export const STALE_CLAIM_MS = 5 * 60_000;

export type ClaimedPledge = {
  id: string;
  userId: string;
  paymentMethodId: string;
  amountCents: number;
  chargeAttempts: number;
  createdAt: Date;
  customerId: string | null;
  /** this claim's stamp, and the state before it: a claim not yet charged can be given back exactly */
  claimedAt: Date;
  prevStatus: string;
  prevClaimedAt: Date | null;
  prevAttempts: number;
  /** issue 37: the seat's group (null: one seat) and the charge unit it was claimed in (null: itself alone) */
  groupId: string | null;
  chargeUnitId: string | null;
};

/**
 * Claims the next chargeable pledges (up to `limit`) of a campaign for this run: uncharged with a
 * saved card and either unclaimed, or claimed by a run that died (claim older than `staleAfterMs`),
 * or — `retryFailed`: the manual charge, or (a date) the recovery pass for failures before it — a
 * soft decline not yet retried whose window is open (payment-window.ts). `FOR UPDATE SKIP LOCKED`
 * hands concurrent runs (on any instance) disjoint pledges without waiting; the UPDATE re-checks
 * the state, so a pledge is never held twice. A fresh claim increments the attempt (a new
 * idempotency key); re-driving a stale claim keeps it, so the provider replays the first request.
 * The backer's provider customer comes along, so the charge needs no lookup of its own, and the
 * pledge's state before the claim, so a claim not charged can be given back (`giveBackClaims`).
 */
export async function claimBatch(
  campaignId: string,
  staleAfterMs: number,
  runStart: Date,
  retryFailed: boolean | Date,
  limit: number,
  onlyPledgeId?: string,
): Promise<ClaimedPledge[]> {
  // New charges only while the campaign is confirmed (not cancelled or expired meanwhile). A stale
  // claim is still re-driven: with its original idempotency key it can only learn the outcome of a
  // charge already made, which then gets recorded (and refunded if the event was cancelled).
  const live = Prisma.sql`EXISTS (SELECT 1 FROM "Campaign" c WHERE c."id" = ${campaignId} AND c."status" IN (${statusIn(CONFIRMED_STATUSES)}))`;
  const retry = retryFailed
    ? Prisma.sql`OR ("chargeClaimedAt" < ${runStart} AND ${live} AND ${memberPledgeSql()} AND ${softRetrySql('"Pledge"')} AND ${stillPayableSql('"Pledge"')}
         ${retryFailed instanceof Date ? Prisma.sql`AND "paymentFailedAt" <= ${retryFailed}` : Prisma.empty})`
    : Prisma.empty;
  const claimable = Prisma.sql`"campaignId" = ${campaignId} AND "paymentMethodId" IS NOT NULL AND "charged" = false
        AND (("chargeStatus" = 'none' AND ${live} AND ${memberPledgeSql()})
          OR ("chargeStatus" = 'processing' AND "chargeClaimedAt" < LEAST(${runStart}, clock_timestamp() - (${staleAfterMs}::int * interval '1 millisecond')))
          ${retry})`;
  const cols = Prisma.sql`"id", "userId", "groupId", "guestSlot", "chargeStatus"::text AS "prevStatus", "chargeClaimedAt" AS "prevClaimedAt", "chargeAttempts" AS "prevAttempts"`;
  // Issue 37: a group's claimable seats are claimed together (the mates of the seats picked) and form
  // one charge unit per group and kind of claim (fresh, or re-driven); a fresh unit of several seats
  // stores its first seat's id (the holder's own first) on each, so a re-drive finds the same seats.
  // The payer is the group's holder (a named friend's seat is paid by the holder's card). `onlyPledgeId`
  // (the committer's own charge) takes that pledge and its group's claimable seats.
  const rows = await db.$queryRaw<ClaimedPledge[]>`
    WITH picked AS (
      SELECT ${cols} FROM "Pledge" WHERE ${claimable} ${onlyPledgeId ? Prisma.sql`AND "id" = ${onlyPledgeId}` : Prisma.empty}
      ORDER BY "createdAt" ASC, "id" ASC
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ), mates AS (
      SELECT ${cols} FROM "Pledge"
      WHERE EXISTS (SELECT 1 FROM picked WHERE "groupId" IS NOT NULL) -- none: not even looked for (one-time filter)
        AND "groupId" IN (SELECT "groupId" FROM picked WHERE "groupId" IS NOT NULL)
        AND "id" NOT IN (SELECT "id" FROM picked) AND ${claimable}
      FOR UPDATE SKIP LOCKED
    ), claimed AS (SELECT * FROM picked UNION ALL SELECT * FROM mates), next AS (
      SELECT c.*, first_value(c."id") OVER w AS "unitLead", count(*) OVER w AS "unitSize" FROM claimed c
      WINDOW w AS (PARTITION BY COALESCE(c."groupId", c."id"), c."prevStatus" = 'processing'
        ORDER BY (c."id" = c."groupId") DESC, c."guestSlot" ASC, c."id" ASC ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
    )
    UPDATE "Pledge" AS p SET
      "chargeStatus" = 'processing',
      "chargeClaimedAt" = clock_timestamp(),
      "chargeAttempts" = CASE WHEN p."chargeStatus" = 'processing' THEN GREATEST(p."chargeAttempts", 1) ELSE p."chargeAttempts" + 1 END,
      "chargeUnitId" = CASE WHEN p."chargeStatus" = 'processing' THEN p."chargeUnitId" WHEN next."unitSize" > 1 THEN next."unitLead" END
    FROM next LEFT JOIN "Pledge" AS h ON h."id" = next."groupId" JOIN "User" AS u ON u."id" = COALESCE(h."userId", next."userId")
    WHERE p."id" = next."id"
    RETURNING p."id", u."id" AS "userId", p."paymentMethodId", p."amountCents", p."chargeAttempts", p."createdAt", u."stripeCustomerId" AS "customerId",
      p."chargeClaimedAt" AS "claimedAt", next."prevStatus", next."prevClaimedAt", next."prevAttempts", p."groupId", p."chargeUnitId"`;
  // In the order they were committed (RETURNING keeps none).
  return rows.sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * Gives claims back that this run took but never charged (nothing was sent to the provider under
 * their attempt's key): each pledge returns to exactly its state before the claim, if the claim is
 * still this run's. The next run claims it again with the same attempt number.
 */
export async function giveBackClaims(claims: ClaimedPledge[]): Promise<void> {
  if (claims.length === 0) return;
  const values = claims.map(
    (c) =>
      Prisma.sql`(${c.id}::text, ${c.chargeAttempts}::int, ${c.claimedAt}::timestamptz, ${c.prevStatus}::text, ${c.prevClaimedAt}::timestamptz, ${c.prevAttempts}::int)`,
  );
  await db.$executeRaw`
    UPDATE "Pledge" AS p SET
      "chargeStatus" = v."prevStatus"::"PledgeChargeStatus", "chargeClaimedAt" = v."prevClaimedAt", "chargeAttempts" = v."prevAttempts"
    FROM (VALUES ${Prisma.join(values)}) AS v("id", "attempt", "claimedAt", "prevStatus", "prevClaimedAt", "prevAttempts")
    WHERE p."id" = v."id" AND p."chargeStatus" = 'processing' AND p."chargeAttempts" = v."attempt" AND p."chargeClaimedAt" = v."claimedAt"`;
}

/**
 * Records a charge's outcome. A success is the provider's word that money moved, so it is recorded
 * whatever the pledge's state (except already succeeded/refunded); a failure only on a pledge this
 * run still holds (`processing`), so a late failure never overwrites a success. Returns whether it
 * changed the pledge (the caller tells the backer about a new failure: lib/charging/notify.ts).
 */
export async function recordChargeResult(
  pledgeId: string,
  amountCents: number,
  result: ChargeResult,
): Promise<boolean> {
  if (result.status === "succeeded") {
    // The backer's "Event Confirmed!" email is derived from the charged pledge by the email job
    // (lib/derived-emails.ts, same dedupe key), so this hot path stays one short statement (the
    // pledge and its money row).
    const [{ n }] = await db.$queryRaw<{ n: number }[]>`
      WITH p AS (
        UPDATE "Pledge" SET "chargeStatus" = 'succeeded', "charged" = true, "verified" = true, "chargedAt" = ${new Date()},
          "chargeType" = 'paid', "paymentIntentId" = ${result.paymentIntentId}, "amountCents" = ${amountCents},
          "chargeFailureCode" = NULL, "chargeFailureMessage" = NULL
        WHERE "id" = ${pledgeId} AND "chargeStatus" IN (${pledgeStatesIn(SUCCESS_MAY_FOLLOW)})
        RETURNING ${CHARGE_MOVEMENT_RETURNING}
      ), m AS (${chargeMovementSql("p", "succeeded")})
      SELECT count(*)::int AS "n" FROM p`;
    return n > 0;
  }
  const state = result.status === "requires_action" ? "requires_action" : "failed";
  const code = result.code;
  const [{ n }] = await db.$queryRaw<{ n: number }[]>`
    WITH p AS (
      UPDATE "Pledge" SET "chargeStatus" = ${state}::"PledgeChargeStatus", "chargeFailureCode" = ${code},
        "chargeFailureMessage" = ${result.message.slice(0, 500)},
        "paymentIntentId" = COALESCE(${result.paymentIntentId ?? null}::text, "paymentIntentId")
      WHERE "id" = ${pledgeId} AND "chargeStatus" = 'processing'
      RETURNING ${CHARGE_MOVEMENT_RETURNING}
    ), m AS (${chargeMovementSql("p", state, { failureCode: code, providerId: result.paymentIntentId ?? null, amountCents })})
    SELECT count(*)::int AS "n" FROM p`;
  return n > 0;
}

/**
 * Records several successes in one statement, under the same rule as `recordChargeResult` (a
 * success is recorded whatever the pledge's state, except already succeeded/refunded). Returns how
 * many pledges it changed.
 */
export async function recordSuccesses(
  items: { pledgeId: string; amountCents: number; paymentIntentId: string }[],
): Promise<number> {
  if (items.length === 0) return 0;
  const values = items.map(
    (i) => Prisma.sql`(${i.pledgeId}::text, ${i.paymentIntentId}::text, ${i.amountCents}::int)`,
  );
  const [{ n }] = await db.$queryRaw<{ n: number }[]>`
    WITH p AS (
      UPDATE "Pledge" AS p SET
        "chargeStatus" = 'succeeded', "charged" = true, "verified" = true, "chargedAt" = now(), "chargeType" = 'paid',
        "paymentIntentId" = v."paymentIntentId", "amountCents" = v."amountCents",
        "chargeFailureCode" = NULL, "chargeFailureMessage" = NULL
      FROM (VALUES ${Prisma.join(values)}) AS v("id", "paymentIntentId", "amountCents")
      WHERE p."id" = v."id" AND p."chargeStatus" IN (${pledgeStatesIn(SUCCESS_MAY_FOLLOW)})
      RETURNING p."id", p."campaignId", p."chargeAttempts", p."amountCents", p."paymentIntentId"
    ), m AS (${chargeMovementSql("p", "succeeded")})
    SELECT count(*)::int AS "n" FROM p`;
  return n;
}

/**
 * A free event at its threshold (DESIGN §1 "free events"): every member not yet confirmed is marked
 * free and confirmed (issue 21: a commitment whose condition does not hold is not). Returns how many pledges of the event are confirmed (its `totalCharged`).
 */
export async function confirmFreePledges(
  tx: Prisma.TransactionClient,
  campaignId: string,
  now: Date,
): Promise<number> {
  await tx.pledge.updateMany({
    where: { campaignId, charged: false, ...MEMBER_PLEDGE },
    data: {
      charged: true,
      verified: true,
      chargedAt: now,
      chargeType: "free",
      chargeStatus: "succeeded",
      paymentIntentId: null,
    },
  });
  return tx.pledge.count({ where: { campaignId, charged: true, chargeType: "free", ...MEMBER_PLEDGE } });
}

/**
 * Claims a failed or authentication-blocked charge for the backer's own payment (on-session) with
 * the card they just saved: a new attempt, so a new idempotency key. Only while the event is
 * confirmed. Returns the attempt number, or null when the pledge is not (or no longer) payable.
 */
export async function claimForOnSession(
  pledgeId: string,
  userId: string,
  card: CardSummary,
): Promise<number | null> {
  const claimed = await db.$queryRaw<{ chargeAttempts: number }[]>`
    UPDATE "Pledge" SET "chargeStatus" = 'processing', "chargeClaimedAt" = clock_timestamp(), "chargeAttempts" = "chargeAttempts" + 1,
      "paymentMethodId" = ${card.paymentMethodId}, "cardBrand" = ${card.brand}, "cardLast4" = ${card.last4}
    WHERE "id" = ${pledgeId} AND "userId" = ${userId} AND "chargeStatus" IN ('failed', 'requires_action') AND ${memberPledgeSql()}
      AND ${stillPayableSql('"Pledge"')}
      AND EXISTS (SELECT 1 FROM "Campaign" c WHERE c."id" = "Pledge"."campaignId" AND c."status" IN (${statusIn(CONFIRMED_STATUSES)}))
    RETURNING "chargeAttempts"`;
  return claimed[0]?.chargeAttempts ?? null;
}

/**
 * The provider reports a payment succeeded (webhook): recorded unless the pledge is settled, with its
 * money row under the attempt the payment was made for (`attempt`, from its metadata, when known).
 */
export async function recordProviderSuccess(
  tx: Prisma.TransactionClient,
  pledgeId: string,
  payment: { paymentIntentId: string; chargedAt: Date; amountCents: number | null; attempt?: number | null },
): Promise<void> {
  await tx.$queryRaw`
    WITH p AS (
      UPDATE "Pledge" SET "chargeStatus" = 'succeeded', "charged" = true, "verified" = true, "chargedAt" = ${payment.chargedAt},
        "chargeType" = 'paid', "paymentIntentId" = ${payment.paymentIntentId},
        "amountCents" = COALESCE(${payment.amountCents}::int, "amountCents"),
        "chargeFailureCode" = NULL, "chargeFailureMessage" = NULL
      WHERE "id" = ${pledgeId} AND "chargeStatus" NOT IN (${pledgeStatesIn(SETTLED_STATES)})
      RETURNING ${CHARGE_MOVEMENT_RETURNING}
    ), m AS (${chargeMovementSql("p", "succeeded", { attempt: payment.attempt })})
    SELECT count(*)::int AS "n" FROM p`;
}

/**
 * The provider reports a payment failed or needs authentication (webhook): recorded only on the
 * attempt the pledge is on and never over a settled pledge. Returns whether the pledge changed.
 */
export async function recordProviderFailure(
  tx: Prisma.TransactionClient,
  pledge: { id: string; chargeAttempts: number },
  failure: { kind: "failed" | "requires_action"; code: string; message: string; paymentIntentId: string },
): Promise<boolean> {
  const [{ n }] = await tx.$queryRaw<{ n: number }[]>`
    WITH p AS (
      UPDATE "Pledge" SET "chargeStatus" = ${failure.kind}::"PledgeChargeStatus", "chargeFailureCode" = ${failure.code},
        "chargeFailureMessage" = ${failure.message.slice(0, 500)}, "paymentIntentId" = ${failure.paymentIntentId}
      WHERE "id" = ${pledge.id} AND "chargeAttempts" = ${pledge.chargeAttempts}
        AND "chargeStatus" NOT IN (${pledgeStatesIn(SETTLED_STATES)})
      RETURNING ${CHARGE_MOVEMENT_RETURNING}
    ), m AS (${chargeMovementSql("p", failure.kind, { failureCode: failure.code })})
    SELECT count(*)::int AS "n" FROM p`;
  return n > 0;
}

/**
 * A waiting backer whose promotion charge failed gives a new card (issue 20): the charge state
 * starts over (`none`, recovery window cleared, a new attempt so a late report about the old one
 * matches nothing), so the pledge is next in line again at its place.
 * Only while it waits and no charge of it is in flight. Returns whether it changed.
 */
export async function resetWaitingCard(
  tx: Prisma.TransactionClient,
  pledgeId: string,
  card: CardSummary,
): Promise<boolean> {
  const n = await tx.$executeRaw`
    UPDATE "Pledge" SET "chargeStatus" = 'none', "paymentFailedAt" = NULL, "paymentRemindedAt" = NULL,
      "chargeAttempts" = "chargeAttempts" + 1,
      "chargeFailureCode" = NULL, "chargeFailureMessage" = NULL, "paymentIntentId" = NULL,
      "paymentMethodId" = ${card.paymentMethodId}, "cardBrand" = ${card.brand}, "cardLast4" = ${card.last4}
    WHERE "id" = ${pledgeId} AND "withdrawnAt" IS NULL AND "waitlistedAt" IS NOT NULL AND "charged" = false
      AND "chargeStatus" IN (${pledgeStatesIn(["none", ...RECOVERABLE_STATES])})`;
  return n > 0;
}
