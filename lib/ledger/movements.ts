import "server-only";
import { Prisma } from "@/lib/db";
import type { MoveResult } from "@/lib/payments/types";

/**
 * The money table (issue 32): every movement at the payment provider is one MoneyMovement row — a
 * charge or a refund of a pledge, a transfer to or a reversal from an organizer (those keep their
 * Payout row, linked by `payoutId`). This folder is the only writer of the table, and each write is
 * made in the statement or transaction that writes the pledge's or payout's own columns, so the two
 * never disagree. A row's `idempotencyKey` is the key sent to the provider for that movement.
 *
 * Charges are written by lib/ledger/pledge-state.ts through `chargeMovementSql` (one statement with
 * the pledge's update, so the charging hot path stays one round trip); refunds by ./refunds.ts;
 * payouts by lib/payouts/service.ts through `claimPayoutMovement` / `settlePayoutMovement`.
 */

export type MoneyState = "processing" | "requires_action" | "succeeded" | "failed";

/**
 * The provider's idempotency key of a pledge's charge attempt, in SQL: the same text as
 * lib/payments/types `chargeIdempotencyKey(pledgeId, attempt)` (tests/ledger checks they agree).
 */
const chargeKeySql = (pledge: string, attempt: Prisma.Sql) =>
  Prisma.sql`'pledge-' || ${Prisma.raw(pledge)}."id" || '-attempt-' || ${attempt}`;

/**
 * A data-modifying CTE body that records the charge movement of every pledge the CTE `from` returned
 * (it must return "id", "campaignId", "chargeAttempts", "amountCents", "paymentIntentId"): one row per
 * attempt, keyed by that attempt's idempotency key. A later report on the same attempt moves the row
 * on (a success wins: a succeeded row never changes). `attempt`: the attempt the result belongs to
 * when the caller knows it (a webhook's metadata); otherwise the pledge's current attempt, which is
 * the one its `paymentIntentId` was made under.
 *
 *   WITH p AS (UPDATE "Pledge" … RETURNING …), m AS (${chargeMovementSql("p", "succeeded")}) SELECT …
 */
export function chargeMovementSql(
  from: string,
  state: MoneyState,
  opts: {
    failureCode?: string | null;
    attempt?: number | null;
    /** the provider's id of this attempt's payment when known apart from the pledge's column (a failure may have none) */
    providerId?: string | null;
    /** the amount this attempt asked for, when the pledge's column is not it (a failure leaves the column) */
    amountCents?: number;
    /** issue 37: how many seats' deposits the payment carried (a group's charge unit: each seat's deposit) */
    depositSeats?: number;
  } = {},
): Prisma.Sql {
  const p = Prisma.raw(from);
  const providerId =
    opts.providerId === undefined ? Prisma.sql`${p}."paymentIntentId"` : Prisma.sql`${opts.providerId}::text`;
  const amount =
    opts.amountCents === undefined ? Prisma.sql`${p}."amountCents"` : Prisma.sql`${opts.amountCents}::bigint`;
  const attempt =
    opts.attempt != null && Number.isInteger(opts.attempt)
      ? Prisma.sql`${opts.attempt}::int`
      : Prisma.sql`GREATEST(${p}."chargeAttempts", 1)`;
  // Issue 36: a show-up deposit charged in the same payment is its own row (purpose deposit, the
  // attempt's key + "-deposit", no provider id: the payment's id is the ticket row's), in the same state.
  // A group's charge unit (issue 37) carries each seat's deposit: its row is seats × the deposit, and
  // the unit's MoneyMovementPledge rows give each seat its own (lib/ledger/group-charges).
  const key = chargeKeySql(from, attempt);
  const seats = Prisma.sql`${opts.depositSeats ?? 1}::bigint`;
  return Prisma.sql`
    INSERT INTO "MoneyMovement" ("kind", "purpose", "state", "amountCents", "providerId", "idempotencyKey", "campaignId", "pledgeId", "failureCode")
    SELECT 'charge', v."purpose", ${state}::"MoneyState", v."amountCents", v."providerId", v."key",
      ${p}."campaignId", ${p}."id", ${opts.failureCode ?? null}::text
    FROM ${p} JOIN "Campaign" dc ON dc."id" = ${p}."campaignId"
    CROSS JOIN LATERAL (VALUES
      ('ticket'::"MoneyPurpose", ${amount}::bigint, ${providerId}, ${key}),
      ('deposit'::"MoneyPurpose", dc."depositCents"::bigint * ${seats}, NULL::text, ${key} || '-deposit')
    ) AS v("purpose", "amountCents", "providerId", "key")
    WHERE v."purpose" = 'ticket' OR dc."depositCents" > 0
    ON CONFLICT ("idempotencyKey") DO UPDATE SET "state" = EXCLUDED."state", "amountCents" = EXCLUDED."amountCents",
      "providerId" = COALESCE(EXCLUDED."providerId", "MoneyMovement"."providerId"), "failureCode" = EXCLUDED."failureCode",
      "updatedAt" = now()
    WHERE "MoneyMovement"."state" <> 'succeeded'
    RETURNING "id", "purpose"`;
}

/** The RETURNING list a pledge update needs for `chargeMovementSql`. */
export const CHARGE_MOVEMENT_RETURNING = Prisma.sql`"id", "campaignId", "chargeAttempts", "amountCents", "paymentIntentId"`;

type PayoutClaim = {
  id: string;
  campaignId: string;
  kind: "transfer" | "reversal";
  amountCents: bigint | number;
  reversedPayoutId: string | null;
};

/**
 * A payout movement was claimed (its Payout row created in `tx`, under the event's lock): its money
 * row, `processing`, under the same idempotency key the provider is sent. A reversal names the
 * transfer's row it takes money back from.
 */
export async function claimPayoutMovement(
  tx: Prisma.TransactionClient,
  payout: PayoutClaim,
  key: string,
): Promise<void> {
  const source = payout.reversedPayoutId
    ? await tx.moneyMovement.findUnique({
        where: { payoutId: payout.reversedPayoutId },
        select: { id: true },
      })
    : null;
  await tx.moneyMovement.create({
    data: {
      kind: payout.kind,
      purpose: "payout",
      state: "processing",
      amountCents: BigInt(payout.amountCents),
      idempotencyKey: key,
      campaignId: payout.campaignId,
      payoutId: payout.id,
      sourceId: source?.id ?? null,
    },
  });
}

/** A payout movement's outcome, recorded in the transaction that records its Payout row's (a success wins). */
export async function settlePayoutMovement(
  tx: Prisma.TransactionClient,
  payoutId: string,
  result: MoveResult,
): Promise<void> {
  await tx.moneyMovement.updateMany({
    where: { payoutId, state: result.status === "succeeded" ? { not: "succeeded" } : "processing" },
    data:
      result.status === "succeeded"
        ? { state: "succeeded", providerId: result.id, failureCode: null }
        : { state: "failed" }, // the provider's words stay on the Payout row (failureMessage)
  });
}
