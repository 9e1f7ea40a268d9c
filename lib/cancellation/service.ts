import "server-only";
import { isCancellable, isPaidEvent, STANDING_PLEDGE } from "@/lib/events/lifecycle";
import { db, type Prisma } from "@/lib/db";
import { cancel } from "@/lib/events/status";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import { kickEmailSender, queueEmails } from "@/lib/email/service";
import { cancelledEmail } from "@/lib/campaigns/emails";
import { emailCampaignSelect } from "@/lib/campaigns/notifications";
import { type PaymentGateway } from "@/lib/payments/types";
import { CANCEL_TEXTS, cancelCampaignSchema } from "@/lib/cancellation/schema";
import type { Actor } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";
import { refundOwedPledges } from "@/lib/ledger/refunds";

/**
 * Cancelling an event: before confirmation nobody is charged (saved cards are released by the
 * deadline job's card release); after confirmation every succeeded charge is refunded through the
 * gateway. The status change and every attendee's email commit together under the row lock;
 * refunds run after the commit through the ledger (lib/ledger/refunds.ts: exactly once per pledge),
 * and its sweeper finishes any that failed or any charge that completed after the cancellation.
 */
export async function cancelCampaign(
  viewer: Actor,
  input: unknown,
  opts: { gateway?: PaymentGateway; now?: Date } = {},
): Promise<{ campaignId: string; refunded: number; emailed: number }> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  // a reason too long says so; anything else about the input is an unknown event
  const tooLong = cancelCampaignSchema.safeParse(input).error?.issues.some((i) => i.path[0] === "reason");
  const { campaignId, reason } = parseInput(cancelCampaignSchema, input, {
    message: tooLong ? CANCEL_TEXTS.reasonTooLong : "Invalid event.",
  });
  const now = opts.now ?? new Date();

  const emailed = await db.$transaction(async (tx) => {
    const c = await loadCampaignFor(viewer, campaignId, "cancel", {
      tx,
      lock: true,
      select: { ...emailCampaignSelect, status: true },
    });
    if (!isCancellable(c.status)) {
      throw new AppError(
        "CONFLICT",
        c.status === "cancelled" ? "This event is already cancelled." : "This event has already ended.",
      );
    }
    await cancel(tx, c.id, now, reason);
    const pledges = await tx.pledge.findMany({
      where: { campaignId, ...STANDING_PLEDGE }, // the waitlist hears too
      select: {
        id: true,
        userId: true,
        groupId: true,
        amountCents: true,
        chargeStatus: true,
        paymentMethodId: true,
        user: { select: { email: true, name: true } },
      },
    });
    const chargingStarted = c.status !== "pending";
    return queueEmails(
      tx,
      (await cancelNotices(tx, pledges)).map((n) =>
        cancelledEmail(c, n.to, n.refundedCents, chargingStarted && n.unpaidCard && isPaidEvent(c), reason, {
          seats: n.paidSeats,
          paidByHolder: n.paidByHolder && isPaidEvent(c),
        }),
      ),
    );
  });

  const refunded = await refundOwedPledges(campaignId, opts.gateway);
  await kickEmailSender();
  return { campaignId, refunded, emailed };
}

type CancelledSeat = {
  id: string;
  userId: string;
  groupId: string | null;
  amountCents: number;
  chargeStatus: string;
  paymentMethodId: string | null;
  user: { email: string; name: string | null };
};

/**
 * One cancellation notice per person (issue 37: a group's seats are one person's, or a named friend's
 * own): what they paid is what the seats they pay for were charged — a group's seats are paid by their
 * holder, so the holder's notice says the group's payment and a friend's seat says the holder paid.
 */
async function cancelNotices(tx: Prisma.TransactionClient, seats: CancelledSeat[]) {
  const groupIds = [...new Set(seats.flatMap((p) => (p.groupId ? [p.groupId] : [])))];
  const holders = new Map(
    (await tx.pledge.findMany({ where: { id: { in: groupIds } }, select: { id: true, userId: true } })).map(
      (h) => [h.id, h.userId],
    ),
  );
  const payerOf = (p: CancelledSeat) => (p.groupId ? (holders.get(p.groupId) ?? p.userId) : p.userId);
  type Notice = {
    to: { userId: string; email: string; name: string | null };
    refundedCents: number;
    paidSeats: number;
    unpaidCard: boolean;
    paidByHolder: boolean;
  };
  const notices = new Map<string, Notice>();
  for (const p of seats)
    notices.set(p.userId, {
      to: { userId: p.userId, email: p.user.email, name: p.user.name },
      refundedCents: 0,
      paidSeats: 0,
      unpaidCard: false,
      paidByHolder: false,
    });
  for (const p of seats) {
    const payer = payerOf(p);
    // a named friend's seat: the holder's card paid (or pays) for it, so its money is on their notice
    if (payer !== p.userId) notices.get(p.userId)!.paidByHolder = true;
    const n = notices.get(payer);
    if (!n) continue; // a holder who left: their refund email still tells them (lib/ledger/refunds)
    if (p.chargeStatus === "succeeded") {
      n.refundedCents += p.amountCents;
      n.paidSeats++;
    } else if (p.paymentMethodId) n.unpaidCard = true;
  }
  return [...notices.values()];
}
