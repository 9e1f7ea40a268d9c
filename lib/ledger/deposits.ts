import "server-only";
import { db, Prisma } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { renderEmail } from "@/lib/email/render";
import { kickEmailSender, queueEmail } from "@/lib/email/service";
import type { QueuedEmail } from "@/lib/email/schema";
import { depositOwedBackSql } from "@/lib/events/deposit";
import { seatMoneySql } from "@/lib/ledger/seat-money";
import { cardShort, formatCents } from "@/lib/format";
import { getGateway } from "@/lib/payments/gateway";
import type { PaymentGateway } from "@/lib/payments/types";

/**
 * Deposit refunds (issue 36 item 3, docs/decisions/show-up-deposit.md). A deposit is charged in the
 * ticket's payment as its own money row (lib/ledger/movements chargeMovementSql); it goes back by a
 * partial refund of that payment, exactly once: its refund row is CLAIMED under `deposit-refund-<pledge>`
 * before the provider is asked with that same key, so a second door, a retry or another instance
 * replays the provider's first answer; the row moves to succeeded once, and only the call that moved
 * it queues the backer's email. Which deposits are owed back is lib/events/deposit's rule.
 */

export const depositRefundKey = (pledgeId: string) => `deposit-refund-${pledgeId}`;

type Owed = {
  pledgeId: string;
  campaignId: string;
  chargeId: bigint;
  amountCents: number;
  paymentIntentId: string;
};

/**
 * Deposits charged, owed back and not refunded yet: of one pledge, one event, or every event. Read
 * per seat (lib/ledger/seat-money): a group's payment (issue 37) carried one deposit row for its
 * seats, each seat's share of it is that seat's deposit, refunded on its own. The payment's id is on
 * the ticket row of the payment's own pledge (the unit's first seat), the deposit row's `pledgeId`.
 */
async function owedDeposits(
  where: { campaignId?: string; pledgeId?: string },
  take: number,
): Promise<Owed[]> {
  const money = seatMoneySql({
    ...(where.campaignId ? { campaignId: where.campaignId } : {}),
    ...(where.pledgeId ? { pledgeIds: [where.pledgeId] } : {}),
  });
  const byPledge = where.pledgeId ? Prisma.sql`AND m."pledgeId" = ${where.pledgeId}` : Prisma.empty;
  return db.$queryRaw<Owed[]>`
    SELECT m."pledgeId", m."campaignId", m."id" AS "chargeId", m."amountCents"::int AS "amountCents",
      t."providerId" AS "paymentIntentId"
    FROM ${money} m
    JOIN "MoneyMovement" d ON d."id" = m."id"
    JOIN "Pledge" p ON p."id" = m."pledgeId"
    JOIN "Campaign" c ON c."id" = m."campaignId"
    JOIN "MoneyMovement" t ON t."pledgeId" = d."pledgeId" AND t."kind" = 'charge' AND t."purpose" = 'ticket'
      AND t."state" = 'succeeded' AND t."providerId" IS NOT NULL
    WHERE m."kind" = 'charge' AND m."purpose" = 'deposit' AND m."state" = 'succeeded' ${byPledge}
      AND NOT EXISTS (SELECT 1 FROM "MoneyMovement" r WHERE r."pledgeId" = m."pledgeId" AND r."kind" = 'refund'
        AND r."purpose" = 'deposit' AND r."state" = 'succeeded')
      AND ${Prisma.raw(depositOwedBackSql("p", "c"))}
    ORDER BY m."id"
    LIMIT ${take}`;
}

/**
 * Refunds the deposits owed back (checked in, excused, released, cancelled): of one pledge (the door,
 * right after a scan), one event, or all of them (the sweeper). Returns how many refunds this call
 * recorded. A provider failure on one leaves its claim for the sweeper and goes on with the others.
 */
export async function refundOwedDeposits(
  opts: { campaignId?: string; pledgeId?: string; gateway?: PaymentGateway; take?: number } = {},
): Promise<number> {
  const owed = await owedDeposits(opts, opts.take ?? 200);
  const gateway = opts.gateway ?? getGateway();
  let refunded = 0;
  for (const d of owed) {
    try {
      if (await refundDeposit(d, gateway)) refunded++;
    } catch (err) {
      console.warn(
        `[ledger] deposit refund of pledge ${d.pledgeId} failed, the sweeper retries: ${(err as Error)?.message}`,
      );
    }
  }
  if (refunded > 0) void kickEmailSender();
  return refunded;
}

/** Claims, asks, records one deposit refund. Throws when the provider's answer is not known. */
async function refundDeposit(d: Owed, gateway: PaymentGateway): Promise<boolean> {
  const key = depositRefundKey(d.pledgeId);
  await db.$executeRaw`
    INSERT INTO "MoneyMovement" ("kind", "purpose", "state", "amountCents", "idempotencyKey", "campaignId", "pledgeId", "sourceId")
    VALUES ('refund', 'deposit', 'processing', ${d.amountCents}, ${key}, ${d.campaignId}, ${d.pledgeId}, ${d.chargeId})
    ON CONFLICT ("idempotencyKey") DO NOTHING`;
  const { refundId } = await gateway.refund({
    key,
    pledgeId: d.pledgeId,
    paymentIntentId: d.paymentIntentId,
    amountCents: d.amountCents,
  });
  return db.$transaction(async (tx) => {
    const { count } = await tx.moneyMovement.updateMany({
      where: { idempotencyKey: key, state: { not: "succeeded" } },
      data: { state: "succeeded", providerId: refundId, failureCode: null },
    });
    if (count === 0) return false;
    const select = {
      id: true,
      groupId: true,
      guestSlot: true,
      cardBrand: true,
      cardLast4: true,
      user: { select: { email: true } },
      campaign: { select: { id: true, title: true } },
    } as const;
    const p = await tx.pledge.findUniqueOrThrow({ where: { id: d.pledgeId }, select });
    // issue 37: a named friend's claimed seat was paid by the holder's card: the holder hears of it
    const friendSeat = p.groupId !== null && p.groupId !== p.id && p.guestSlot === 0;
    const payer = friendSeat ? await tx.pledge.findUnique({ where: { id: p.groupId! }, select }) : null;
    await queueEmail(
      tx,
      depositRefundedEmail(
        payer
          ? {
              ...p,
              cardBrand: payer.cardBrand,
              cardLast4: payer.cardLast4,
              user: payer.user,
              friendSeat: true,
            }
          : p,
        d.amountCents,
      ),
    );
    return true;
  });
}

type RefundedDeposit = {
  id: string;
  /** a named friend's seat, told to the holder whose card paid it (issue 37) */
  friendSeat?: boolean;
  cardBrand: string | null;
  cardLast4: string | null;
  user: { email: string };
  campaign: { id: string; title: string };
};

/** The backer hears once that their deposit came back. */
function depositRefundedEmail(p: RefundedDeposit, amountCents: number): QueuedEmail {
  const amount = formatCents(amountCents);
  const whose = p.friendSeat
    ? `the ${amount} show-up deposit of your friend's seat`
    : `your ${amount} show-up deposit`;
  const card = p.cardLast4 ? `your ${cardShort(p.cardBrand, p.cardLast4)}` : "your card";
  return {
    dedupeKey: `deposit-refunded:${p.id}`,
    to: p.user.email,
    subject: `Deposit refunded: ${amount} for "${p.campaign.title}"`,
    ...renderEmail({
      heading: "Your deposit is on its way back",
      paragraphs: [
        `We refunded ${whose} for "${p.campaign.title}" to ${card}.`,
        "It can take 5 to 10 days to show on your statement. There is nothing more for you to do.",
      ],
      action: { label: "See My commitments", url: `${appUrl()}/profile#my-commitments` },
    }),
  };
}
