import "server-only";
import { db, type Prisma } from "@/lib/db";
import { getGateway } from "@/lib/payments/gateway";
import type { PaymentGateway } from "@/lib/payments/types";
import { kickEmailSender, queueEmail } from "@/lib/email/service";
import { groupRefundEmail, refundIssuedEmail } from "@/lib/ledger/emails";
import { refundOwedDeposits } from "@/lib/ledger/deposits";

/**
 * Refunds (issue 32: they live with the ledger; cancellation, withdrawal and giving up call here).
 * Exactly once: the refund's money row is CLAIMED (`processing`) under its idempotency key before
 * the provider is asked with that same key, so a retry — the sweeper, another instance — replays the
 * provider's first answer. The answer is recorded on the row and on the pledge's own columns
 * (`refundId`, `refundedAt`, `chargeStatus` refunded) in one transaction, with the backer's email
 * (issue 34): the transaction that records the refund is the only one that queues it. An unknown
 * outcome leaves the row claimed and the pledge unrefunded: the sweeper asks again with the same key.
 */

/** The provider's idempotency key of a pledge's refund (the key refunds were always sent under). */
export const refundKey = (pledgeId: string) => `refund-${pledgeId}`;

/**
 * Refunds every succeeded, not yet refunded charge that is owed back: those of cancelled events, those
 * withdrawn (after a date or place change: issue 17), and those given up once whoever took the place
 * has paid (issue 20) — for one event, or all of them for the sweeper. Returns how many refunds this
 * call recorded.
 */
export async function refundOwedPledges(
  campaignId?: string,
  gateway: PaymentGateway = getGateway(),
  take = 200,
): Promise<number> {
  const pledges = await db.pledge.findMany({
    where: {
      chargeStatus: "succeeded",
      refundId: null,
      amountCents: { gt: 0 }, // a free event's deposit alone is refunded by refundOwedDeposits
      ...(campaignId ? { campaignId } : {}),
      AND: [
        // its own payment, or (issue 37) a seat of a group's payment, which is on the unit's first seat
        { OR: [{ paymentIntentId: { not: null } }, { chargeUnitId: { not: null } }] },
        {
          OR: [
            { campaign: { status: "cancelled" } },
            { withdrawnAt: { not: null }, gaveUpAt: null },
            // the charged flag is set by every success and never cleared: whoever took the place has paid
            { withdrawnAt: { not: null }, handedTo: { charged: true } },
          ],
        },
      ],
    },
    take,
    select: {
      id: true,
      campaignId: true,
      amountCents: true,
      paymentIntentId: true,
      chargeUnitId: true,
      campaign: { select: { depositCents: true } },
    },
  });
  const units = await paymentsOfUnits(pledges.map((p) => p.chargeUnitId));
  let refunded = 0;
  for (const { campaign, chargeUnitId, ...p } of pledges) {
    // a charge that carried a deposit gives back the ticket's part here; the deposit follows the place
    // by its own refund (lib/ledger/deposits), the same rule for every way a place goes. A seat of a
    // group's payment (issue 37) gives back its share of it: a partial refund, once per seat.
    const partial = campaign.depositCents > 0 || chargeUnitId !== null;
    const paymentIntentId = chargeUnitId ? units.get(chargeUnitId) : p.paymentIntentId;
    if (!paymentIntentId) continue;
    try {
      if (await refundPledge({ ...p, paymentIntentId, partial }, gateway)) refunded++;
    } catch (err) {
      console.warn(
        `[ledger] refund of pledge ${p.id} failed, the sweeper retries: ${(err as Error)?.message}`,
      );
    }
  }
  refunded += await refundOwedDeposits({ campaignId, gateway, take });
  if (refunded > 0) void kickEmailSender();
  return refunded;
}

/** The payment id of each group charge unit (on its first seat). */
async function paymentsOfUnits(unitIds: (string | null)[]): Promise<Map<string, string>> {
  const ids = [...new Set(unitIds.filter((u): u is string => u !== null))];
  if (ids.length === 0) return new Map();
  const leads = await db.pledge.findMany({
    where: { id: { in: ids }, paymentIntentId: { not: null } },
    select: { id: true, paymentIntentId: true },
  });
  return new Map(leads.map((l) => [l.id, l.paymentIntentId!]));
}

/**
 * Refunds one pledge's charge in full (or `partial`: its own amount of the payment): claims its refund row, asks the provider under the row's key,
 * records the answer. Returns whether this call recorded the refund. Throws when the provider's
 * answer is not known (the claim stays for the next try).
 */
export async function refundPledge(
  p: { id: string; campaignId: string; amountCents: number; paymentIntentId: string; partial?: boolean },
  gateway: PaymentGateway,
): Promise<boolean> {
  const key = refundKey(p.id);
  await db.$executeRaw`
    INSERT INTO "MoneyMovement" ("kind", "purpose", "state", "amountCents", "idempotencyKey", "campaignId", "pledgeId", "sourceId")
    VALUES ('refund', 'ticket', 'processing', ${p.amountCents}, ${key}, ${p.campaignId}, ${p.id},
      (SELECT "id" FROM "MoneyMovement" WHERE "providerId" = ${p.paymentIntentId} AND "kind" = 'charge' AND "purpose" = 'ticket'))
    ON CONFLICT ("idempotencyKey") DO NOTHING`;
  const { refundId } = await gateway.refund({
    key,
    pledgeId: p.id,
    paymentIntentId: p.paymentIntentId,
    ...(p.partial ? { amountCents: p.amountCents } : {}),
  });
  return recordRefund(p.id, key, refundId);
}

/**
 * A refund went through: recorded once per pledge, on its money row and its own columns together,
 * and the payer told in the same transaction (only by the call that recorded it). A seat of a group's
 * payment (issue 37) is the holder's money: they hear of it, never a named friend who claimed the seat;
 * a cancelled event's group refund is ONE email for the group's seats (`groupRefundEmail`), queued by
 * the transaction that records the group's last owed seat (the group's lock orders them).
 */
async function recordRefund(pledgeId: string, key: string, refundId: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const seat = await tx.pledge.findUnique({
      where: { id: pledgeId },
      select: { groupId: true, chargeUnitId: true },
    });
    const groupId = seat?.chargeUnitId ? seat.groupId : null;
    if (groupId) await tx.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${`refund-group:${groupId}`}))`;
    const { count } = await tx.pledge.updateMany({
      where: { id: pledgeId, refundId: null },
      data: { refundId, refundedAt: new Date(), chargeStatus: "refunded" },
    });
    await tx.moneyMovement.updateMany({
      where: { idempotencyKey: key, state: { not: "succeeded" } },
      data: { state: "succeeded", providerId: refundId, failureCode: null },
    });
    if (count === 0) return false;
    const pledge = await tx.pledge.findUniqueOrThrow({
      where: { id: pledgeId },
      select: {
        id: true,
        amountCents: true,
        cardBrand: true,
        cardLast4: true,
        standing: true,
        userId: true,
        user: { select: { email: true } },
        campaign: { select: { id: true, title: true, status: true, cancelledAt: true } },
      },
    });
    if (!groupId) {
      await queueEmail(tx, refundIssuedEmail(pledge));
      return true;
    }
    const holder = await tx.pledge.findUniqueOrThrow({
      where: { id: groupId },
      select: { userId: true, cardBrand: true, cardLast4: true, user: { select: { email: true } } },
    });
    const payer = { email: holder.user.email, cardBrand: holder.cardBrand, cardLast4: holder.cardLast4 };
    const { cancelledAt } = pledge.campaign;
    if (pledge.campaign.status !== "cancelled" || !cancelledAt) {
      // one seat refunded on its own (given up, withdrawn after a change): its own email, to the payer
      await queueEmail(tx, refundIssuedEmail(pledge, pledge.userId === holder.userId ? undefined : payer));
      return true;
    }
    await queueGroupRefundEmail(tx, { groupId, cancelledAt, payer, campaign: pledge.campaign });
    return true;
  });
}

/**
 * A cancelled event's group: once no seat of its payment is owed a refund any more, the one email for
 * the seats refunded since the cancellation (a seat refunded before it had its own).
 */
async function queueGroupRefundEmail(
  tx: Prisma.TransactionClient,
  g: {
    groupId: string;
    cancelledAt: Date;
    payer: { email: string; cardBrand: string | null; cardLast4: string | null };
    campaign: { id: string; title: string };
  },
): Promise<void> {
  const paidSeats = { groupId: g.groupId, chargeUnitId: { not: null }, amountCents: { gt: 0 } };
  const owed = await tx.pledge.count({ where: { ...paidSeats, chargeStatus: "succeeded", refundId: null } });
  if (owed > 0) return; // the last seat's refund tells
  const refunded = await tx.pledge.aggregate({
    where: { ...paidSeats, refundId: { not: null }, refundedAt: { gte: g.cancelledAt } },
    _sum: { amountCents: true },
    _count: { _all: true },
  });
  await queueEmail(
    tx,
    groupRefundEmail({
      groupId: g.groupId,
      cents: refunded._sum.amountCents ?? 0,
      seats: refunded._count._all,
      to: g.payer.email,
      cardBrand: g.payer.cardBrand,
      cardLast4: g.payer.cardLast4,
      campaign: g.campaign,
    }),
  );
}
