import "server-only";
import { db, Prisma } from "@/lib/db";
import { statusIn } from "@/lib/events/sql";
import { AppError } from "@/lib/errors";
import { withEvent } from "@/lib/events/lock";
import { getGateway } from "@/lib/payments/gateway";
import type { MoveResult, PaymentGateway } from "@/lib/payments/types";
import { CONFIRMED_STATUSES, inStatuses } from "@/lib/events/lifecycle";
import { canModerate, type Actor } from "@/lib/access/rules";
import { pledgeStatesIn, SETTLED_STATES } from "@/lib/ledger/pledge-state";
import { kickEmailSender, queueEmail } from "@/lib/email/service";
import { payoutSentEmail } from "@/lib/payouts/emails";
import { ledgerOf, payoutAvailableAt, payoutHoldDays } from "@/lib/payouts/ledger";
import { applyAccountState } from "@/lib/payouts/accounts";
import { depositKeptAtSql } from "@/lib/events/deposit";
import { claimPayoutMovement, settlePayoutMovement } from "@/lib/ledger/movements";

/**
 * Paying organizers (issue 23). Exactly once, like charging: a movement is a Payout row CLAIMED
 * under the event's row lock — its amount computed from the ledger in that same transaction —
 * before the provider is called with the row's idempotency key (payout-<campaignId>-<seq>). A crash
 * after the claim leaves the row `processing`; the next run re-drives it with the same key, so the
 * provider replays the first answer instead of moving money twice. A new movement is claimed only
 * once no earlier one of the event is in flight, so the ledger never counts a movement twice or
 * misses one. Refunds after a transfer are reversed the same way; one that cannot be taken back is
 * flagged to admins (`payoutShortfallCents`), never dropped.
 */
export const payoutKey = (campaignId: string, seq: number) => `payout-${campaignId}-${seq}`;

type PayoutRow = Prisma.PayoutGetPayload<object>;

/** Asks the provider for a claimed movement and records the answer (forward only). */
async function drive(row: PayoutRow, gateway: PaymentGateway): Promise<MoveResult | null> {
  const base = {
    key: payoutKey(row.campaignId, row.seq),
    amountCents: Number(row.amountCents),
    campaignId: row.campaignId,
    payoutId: row.id,
  };
  let result: MoveResult;
  try {
    // Stripe keeps an idempotency key about a day: a claim older than that is looked up first, so a
    // transfer it already made is recorded instead of being made again.
    const found =
      row.kind === "transfer" && Date.now() - row.createdAt.getTime() > KEY_LIFETIME_MS
        ? await gateway.findTransfer({ campaignId: row.campaignId, payoutId: row.id })
        : null;
    if (found) result = { status: "succeeded", id: found };
    else if (row.kind === "transfer") result = await gateway.transfer({ ...base, accountId: row.accountId });
    else {
      const source = await db.payout.findUnique({ where: { id: row.reversedPayoutId ?? "" } });
      if (!source?.providerId)
        result = { status: "failed", message: "The transfer to reverse is not known." };
      else result = await gateway.reverseTransfer({ ...base, transferId: source.providerId });
    }
  } catch (err) {
    // Unknown outcome: the row stays claimed; the sweeper re-drives it with the same key.
    console.warn(`[payouts] ${base.key}: outcome unknown, will re-drive: ${(err as Error).message}`);
    return null;
  }
  await recordMove(row.id, result);
  // A refused transfer: the account may have changed without our hearing of it (a lost webhook).
  if (row.kind === "transfer" && result.status === "failed") {
    const state = await gateway.readPayoutAccount(row.accountId).catch(() => null);
    if (state) await applyAccountState(row.accountId, state).catch(() => false);
  }
  return result;
}

/** Stripe keeps idempotency keys for 24 hours; older claims are looked up before they are re-sent. */
const KEY_LIFETIME_MS = 23 * 3_600_000;
/** After a refused transfer, the event is tried again this much later (a balance, an account being fixed). */
const RETRY_REFUSED_MS = 3_600_000;

/** A movement claimed under the event's lock: its Payout row and its money row (lib/ledger), together. */
async function claimPayout(
  tx: Prisma.TransactionClient,
  args: { data: Prisma.PayoutUncheckedCreateInput },
): Promise<PayoutRow> {
  const row = await tx.payout.create(args);
  await claimPayoutMovement(tx, row, payoutKey(row.campaignId, row.seq));
  return row;
}

/** Records a movement's outcome once (also from the `transfer.*` webhooks): a success wins. */
export async function recordMove(payoutId: string, result: MoveResult): Promise<void> {
  await db.$transaction(async (tx) => {
    const moved = await tx.payout.updateMany({
      where: { id: payoutId, status: result.status === "succeeded" ? { not: "succeeded" } : "processing" },
      data:
        result.status === "succeeded"
          ? { status: "succeeded", providerId: result.id, completedAt: new Date(), failureMessage: null }
          : { status: "failed", failureMessage: result.message.slice(0, 500), completedAt: new Date() },
    });
    if (moved.count === 0) return;
    await settlePayoutMovement(tx, payoutId, result);
    const row = await tx.payout.findUniqueOrThrow({ where: { id: payoutId } });
    if (row.kind === "transfer" && result.status === "succeeded")
      await queueEmail(tx, await payoutSentEmail(tx, row));
  });
}

/**
 * A `transfer.created`/`transfer.updated` webhook: the provider made the transfer of this payout,
 * whatever the run that asked learned. Only a transfer row still claimed or failed moves (a
 * success wins); a replayed or unknown report changes nothing.
 */
export async function recordTransferReport(payoutId: string, transferId: string): Promise<void> {
  const row = await db.payout.findUnique({
    where: { id: payoutId },
    select: { kind: true, providerId: true },
  });
  if (!row || row.kind !== "transfer" || (row.providerId && row.providerId !== transferId)) return;
  await recordMove(payoutId, { status: "succeeded", id: transferId });
}

/** The provider's fee of each charge not known yet (asked once per charge, then stored). */
async function fillProcessingFees(campaignId: string, gateway: PaymentGateway): Promise<void> {
  const rows = await db.$queryRaw<{ id: string; paymentIntentId: string }[]>`
    SELECT "id", "paymentIntentId" FROM "Pledge" WHERE "campaignId" = ${campaignId} AND "chargeType" = 'paid'
      AND "chargeStatus" IN (${pledgeStatesIn(SETTLED_STATES)}) AND "processingFeeCents" IS NULL AND "paymentIntentId" IS NOT NULL
    LIMIT 5000`;
  for (let i = 0; i < rows.length; i += 8) {
    // One lookup failing (the provider busy, a charge without its balance transaction yet) does not
    // stop the others; its fee stays unknown, which holds the event's transfers (not its reversals).
    const results = await Promise.allSettled(
      rows.slice(i, i + 8).map(async (p) => {
        const fee = await gateway.processingFee(p.paymentIntentId);
        await db.pledge.updateMany({
          where: { id: p.id, processingFeeCents: null },
          data: { processingFeeCents: fee },
        });
      }),
    );
    const failed = results.find((r) => r.status === "rejected");
    if (failed) {
      const err = failed.reason as Error;
      console.warn(`[payouts] ${campaignId}: a processing fee was not read yet: ${(err as Error).message}`);
    }
  }
}

type ClaimRow = {
  status: string;
  fundedAt: Date | null;
  payoutHeldAt: Date | null;
  creatorId: string;
  shortfall: number;
};
type Ledger = Awaited<ReturnType<typeof ledgerOf>>;

/** A transfer: a confirmed event, after the hold, not held by an admin, to a ready account. */
async function claimTransfer(
  tx: Prisma.TransactionClient,
  c: ClaimRow & { fundedAt: Date },
  ledger: Ledger,
  at: { campaignId: string; seq: number; now: Date; mode: "stripe" | "demo" },
): Promise<PayoutRow | null> {
  // (unknown processing fees would overstate the net: wait for them)
  if (
    ledger.feesUnknown > 0 ||
    !inStatuses(CONFIRMED_STATUSES, c.status) ||
    c.payoutHeldAt ||
    payoutAvailableAt(c.fundedAt) > at.now
  )
    return null;
  const account = await tx.payoutAccount.findUnique({ where: { userId: c.creatorId } });
  if (account?.status !== "ready" || account.provider !== at.mode) return null;
  // a refused transfer is tried again an hour later, not every minute
  const refused = await tx.payout.findFirst({
    where: {
      campaignId: at.campaignId,
      kind: "transfer",
      status: "failed",
      completedAt: { gt: new Date(at.now.getTime() - RETRY_REFUSED_MS) },
    },
    select: { id: true },
  });
  if (refused) return null;
  return claimPayout(tx, {
    data: {
      campaignId: at.campaignId,
      seq: at.seq,
      kind: "transfer",
      amountCents: ledger.dueCents,
      accountId: account.accountId,
    },
  });
}

/** A reversal from the newest transfer with something left to take back; none left: the shortfall is flagged. */
async function claimReversal(
  tx: Prisma.TransactionClient,
  ledger: Ledger,
  at: { campaignId: string; seq: number },
): Promise<PayoutRow | null> {
  const { campaignId, seq } = at;
  const transfers = await tx.payout.findMany({
    where: { campaignId, kind: "transfer", status: "succeeded" },
    orderBy: { seq: "desc" },
  });
  for (const t of transfers) {
    // a transfer Stripe refused to reverse once is not tried again: what it holds is flagged below
    if (await tx.payout.count({ where: { reversedPayoutId: t.id, status: "failed" } })) continue;
    const back = await tx.payout.aggregate({
      where: { reversedPayoutId: t.id, status: { not: "failed" } },
      _sum: { amountCents: true },
    });
    const left = Number(t.amountCents) - Number(back._sum.amountCents ?? 0);
    if (left <= 0) continue;
    return claimPayout(tx, {
      data: {
        campaignId,
        seq,
        kind: "reversal",
        amountCents: Math.min(-ledger.dueCents, left),
        accountId: t.accountId,
        reversedPayoutId: t.id,
      },
    });
  }
  await tx.campaign.update({ where: { id: campaignId }, data: { payoutShortfallCents: -ledger.dueCents } });
  return null;
}

/** Claims the event's next movement, or null when nothing may move now. */
async function claimNext(campaignId: string, now: Date, mode: "stripe" | "demo"): Promise<PayoutRow | null> {
  const read = Prisma.sql`"status"::text AS "status", "fundedAt", "payoutHeldAt", "creatorId", "payoutShortfallCents"::float8 AS "shortfall"`;
  return db.$transaction((tx) =>
    withEvent<PayoutRow | null, ClaimRow>(
      tx,
      campaignId,
      async (c) => {
        if (!c?.fundedAt) return null;
        const ledger = await ledgerOf(tx, campaignId);
        if (ledger.inFlight > 0) return null;
        const seq =
          ((await tx.payout.aggregate({ where: { campaignId }, _max: { seq: true } }))._max.seq ?? 0) + 1;
        if (ledger.dueCents > 0)
          return claimTransfer(tx, { ...c, fundedAt: c.fundedAt }, ledger, { campaignId, seq, now, mode });
        // A refund flagged as not recoverable is not tried again every minute: it waits for an admin.
        if (ledger.dueCents < 0 && c.shortfall >= -ledger.dueCents) return null;
        if (ledger.dueCents < 0) return claimReversal(tx, ledger, { campaignId, seq });
        await tx.campaign.update({
          where: { id: campaignId },
          data: { payoutSettledAt: now, payoutShortfallCents: 0 },
        });
        return null;
      },
      { read },
    ),
  );
}

/**
 * One payout run for an event: re-drives its claimed movements, then claims and drives the next
 * ones (at most a few per run; the sweeper comes back). Safe to run any number of times, at once,
 * on any instance. Returns the movements this run made.
 */
export async function runPayout(
  campaignId: string,
  opts: { now?: Date; gateway?: PaymentGateway } = {},
): Promise<MoveResult[]> {
  const gateway = opts.gateway ?? getGateway();
  const now = opts.now ?? new Date();
  const made: MoveResult[] = [];
  await db.campaign.updateMany({ where: { id: campaignId }, data: { payoutCheckedAt: now } });
  for (const row of await db.payout.findMany({
    where: { campaignId, status: "processing" },
    orderBy: { seq: "asc" },
  })) {
    const r = await drive(row, gateway);
    if (!r) return made;
    made.push(r);
  }
  await fillProcessingFees(campaignId, gateway);
  for (let i = 0; i < 5; i++) {
    const row = await claimNext(campaignId, now, gateway.mode);
    if (!row) break;
    const r = await drive(row, gateway);
    if (!r) break;
    made.push(r);
    // after a refusal the next claim decides: a transfer waits an hour, a reversal is flagged
  }
  if (made.some((m) => m.status === "succeeded")) void kickEmailSender();
  return made;
}

/**
 * Events the payout sweeper must look at: a claimed movement left unresolved, an event past its
 * hold not settled yet, a settled one whose pledges changed since (a late charge, a refund), or one
 * with a charge whose processing fee is not known yet.
 */
export async function listDuePayouts(now = new Date(), limit = 100): Promise<string[]> {
  const cutoff = new Date(now.getTime() - payoutHoldDays() * 86_400_000);
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT c."id" FROM "Campaign" c
    WHERE c."fundedAt" IS NOT NULL AND (c."ticketPriceCents" > 0 OR c."pactType" = 'crowdfund' OR c."depositCents" > 0)
      AND (EXISTS (SELECT 1 FROM "Payout" p WHERE p."campaignId" = c."id" AND p."status" = 'processing')
        OR (c."payoutSettledAt" IS NULL AND (c."fundedAt" <= ${cutoff} OR c."status" NOT IN (${statusIn(CONFIRMED_STATUSES)})))
        -- issue 36: the deposits kept once the grace is over, and any deposit moved since the last settling
        OR (c."depositCents" > 0 AND c."payoutSettledAt" < ${Prisma.raw(depositKeptAtSql("c"))} AND ${Prisma.raw(depositKeptAtSql("c"))} <= ${now})
        OR (c."depositCents" > 0 AND EXISTS (SELECT 1 FROM "MoneyMovement" dm WHERE dm."campaignId" = c."id"
          AND dm."purpose" = 'deposit' AND dm."updatedAt" > c."payoutSettledAt"))
        OR EXISTS (SELECT 1 FROM "Pledge" pl WHERE pl."campaignId" = c."id"
          AND (pl."chargedAt" > c."payoutSettledAt" OR pl."refundedAt" > c."payoutSettledAt" OR pl."withdrawnAt" > c."payoutSettledAt"
            OR (pl."processingFeeCents" IS NULL AND pl."paymentIntentId" IS NOT NULL AND pl."chargeType" = 'paid'
              AND pl."chargeStatus" IN (${pledgeStatesIn(SETTLED_STATES)})))))
    ORDER BY c."payoutCheckedAt" ASC NULLS FIRST, c."fundedAt" ASC
    LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

const HOLD_TEXTS = {
  reason: "Please give a reason for the hold (at most 500 characters).",
  notFound: "Campaign not found",
} as const;

/**
 * An admin holds an event's payout (fraud, a dispute) with a reason, or releases it (`reason`
 * null). Transfers wait while it is held; reversals of refunds do not.
 */
export async function setPayoutHold(
  actor: Actor,
  campaignId: unknown,
  reason: unknown,
): Promise<{ held: boolean }> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (!canModerate(actor)) throw new AppError("FORBIDDEN", "Access denied. Admin privileges required.");
  if (typeof campaignId !== "string" || campaignId.length > 64)
    throw new AppError("NOT_FOUND", HOLD_TEXTS.notFound);
  const text = typeof reason === "string" ? reason.trim() : null;
  if (reason !== null && (!text || text.length > 500)) throw new AppError("BAD_REQUEST", HOLD_TEXTS.reason);
  const { count } = await db.campaign.updateMany({
    where: { id: campaignId },
    data: text
      ? { payoutHoldReason: text, payoutHeldAt: new Date(), payoutHeldById: actor.id }
      : { payoutHoldReason: null, payoutHeldAt: null, payoutHeldById: null, payoutSettledAt: null },
  });
  if (count === 0) throw new AppError("NOT_FOUND", HOLD_TEXTS.notFound);
  return { held: Boolean(text) };
}
