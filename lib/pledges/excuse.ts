import "server-only";
import { db, Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { canManageEvent, type Actor } from "@/lib/access/rules";
import { depositKeptAtSql } from "@/lib/events/deposit";
import { refundOwedDeposits } from "@/lib/ledger/deposits";
import { seatMoneySql } from "@/lib/ledger/seat-money";
import type { PaymentGateway } from "@/lib/payments/types";

/**
 * The organizer excuses a person's absence (issue 36 item 3): their show-up deposit is refunded as if
 * they had checked in. Only the event's organizer; only a deposit that was charged, not checked in,
 * and only until the deposit is kept (the event's end plus the grace: lib/events/deposit). Once.
 */
export const EXCUSE_TEXTS = {
  notFound: "Commitment not found.",
  denied: "Only the organizer can excuse a deposit.",
  noDeposit: "This commitment has no deposit to refund.",
  checkedIn: "This person checked in: their deposit is refunded already.",
  tooLate: "The grace period is over: this deposit is kept.",
} as const;

export async function excuseDeposit(
  actor: Actor,
  pledgeId: unknown,
  opts: { gateway?: PaymentGateway } = {},
): Promise<{ excused: true }> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (typeof pledgeId !== "string" || pledgeId.length > 64)
    throw new AppError("NOT_FOUND", EXCUSE_TEXTS.notFound);
  const pledge = await db.pledge.findUnique({
    where: { id: pledgeId },
    select: { id: true, campaignId: true, campaign: { select: { creatorId: true } } },
  });
  if (!pledge) throw new AppError("NOT_FOUND", EXCUSE_TEXTS.notFound);
  if (!canManageEvent(actor, pledge.campaign)) throw new AppError("FORBIDDEN", EXCUSE_TEXTS.denied);

  // One statement decides, so a check-in or the end of the grace racing it cannot both win.
  const [row] = await db.$queryRaw<
    { charged: boolean; checkedIn: boolean; open: boolean; excused: boolean }[]
  >`
    WITH facts AS (
      SELECT p."id",
        -- per seat: a group's payment carries each seat's deposit (lib/ledger/seat-money, issue 37)
        EXISTS (SELECT 1 FROM ${seatMoneySql({ pledgeIds: [pledgeId] })} m WHERE m."pledgeId" = p."id" AND m."kind" = 'charge'
          AND m."purpose" = 'deposit' AND m."state" = 'succeeded') AS charged,
        EXISTS (SELECT 1 FROM "Ticket" t JOIN "CheckIn" ci ON ci."ticketId" = t."id" WHERE t."pledgeId" = p."id") AS "checkedIn",
        COALESCE(now() < ${Prisma.raw(depositKeptAtSql("c"))}, false) AS open,
        p."depositExcusedAt" IS NOT NULL AS excused
      FROM "Pledge" p JOIN "Campaign" c ON c."id" = p."campaignId"
      WHERE p."id" = ${pledgeId}
    ), upd AS (
      UPDATE "Pledge" p SET "depositExcusedAt" = now()
      FROM facts f WHERE p."id" = f."id" AND f.charged AND NOT f."checkedIn" AND f.open AND NOT f.excused
      RETURNING p."id"
    )
    SELECT charged, "checkedIn", open, (excused OR EXISTS (SELECT 1 FROM upd)) AS excused FROM facts`;
  if (!row?.excused) {
    if (!row?.charged) throw new AppError("CONFLICT", EXCUSE_TEXTS.noDeposit);
    if (row.checkedIn) throw new AppError("CONFLICT", EXCUSE_TEXTS.checkedIn);
    throw new AppError("CONFLICT", EXCUSE_TEXTS.tooLate);
  }
  try {
    await refundOwedDeposits({ pledgeId, gateway: opts.gateway });
  } catch (err) {
    console.warn(`[excuse] deposit refund of ${pledgeId} left to the sweeper: ${(err as Error).message}`);
  }
  return { excused: true };
}
