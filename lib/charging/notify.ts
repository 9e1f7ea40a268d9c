import "server-only";
import { db, type Prisma } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { cardInWords, formatCents } from "@/lib/format";
import { formatInZone } from "@/lib/campaigns/event-time";
import { pledgeChargeCents } from "@/lib/events/lifecycle";
import { wentAhead } from "@/lib/events/money-sentences";
import { isRecoverable, RECOVERABLE_STATES } from "@/lib/ledger/pledge-state";
import { paymentDueBy } from "@/lib/ledger/payment-window";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";
import { queueEmail } from "@/lib/email/service";
import { declineInPlainWords } from "@/lib/payments/declines";

/**
 * The emails of a failed payment (DESIGN §1 "failed payments"), all in the branded layout: the
 * failure itself (amount, reason in plain words, the date to pay by and what happens otherwise), a
 * reminder every 48 hours while the window is open, and — when it closes unpaid — a note to the
 * backer that their place was released and one to the organizer. Each dedupe key names the pledge
 * and the moment, so every one arrives once however often its cause runs.
 */
export const paymentSelect = {
  id: true,
  userId: true,
  chargeStatus: true,
  chargeFailureCode: true,
  chargeFailureMessage: true,
  amountCents: true,
  cardBrand: true,
  cardLast4: true,
  paymentFailedAt: true,
  attendeeNumber: true,
  waitlistedAt: true,
  chargeUnitId: true,
  user: { select: { email: true, name: true } },
  campaign: {
    select: {
      id: true,
      title: true,
      ticketPriceCents: true,
      depositCents: true,
      pactType: true,
      goAheadAt: true,
      startsAt: true,
      timeZone: true,
      creatorId: true,
      creator: { select: { email: true } },
    },
  },
} as const satisfies Prisma.PledgeSelect;
/** `seats`: how many seats the payment is for (issue 37: a group's one payment; 1 otherwise) */
export type PaymentRow = Prisma.PledgeGetPayload<{ select: typeof paymentSelect }> & { seats?: number };

/** The rows with the seats each one's payment is for (a group's payment, on its first seat: issue 37). */
export async function withSeats(tx: Prisma.TransactionClient, rows: PaymentRow[]): Promise<PaymentRow[]> {
  const units = rows.filter((r) => r.chargeUnitId === r.id).map((r) => r.id);
  if (units.length === 0) return rows;
  const counts = await tx.pledge.groupBy({
    by: ["chargeUnitId"],
    where: { chargeUnitId: { in: units }, chargeStatus: { in: [...RECOVERABLE_STATES] } },
    _count: true,
  });
  const by = new Map(counts.map((c) => [c.chargeUnitId, c._count]));
  return rows.map((r) => (by.has(r.id) ? { ...r, seats: by.get(r.id) } : r));
}

function facts(p: PaymentRow) {
  // the payment: the ticket's part (each seat's, issue 37) and the show-up deposit charged with it (issue 36)
  const amount = formatCents((pledgeChargeCents(p.campaign, p) + p.campaign.depositCents) * (p.seats ?? 1));
  const card = p.cardLast4 ? `your ${cardInWords(p.cardBrand, p.cardLast4, "")}` : "your card";
  const reason =
    p.chargeStatus === "requires_action"
      ? declineInPlainWords("authentication_required", null)
      : declineInPlainWords(p.chargeFailureCode, p.chargeFailureMessage);
  const due = formatInZone(
    paymentDueBy(p.paymentFailedAt ?? new Date(), p.campaign.startsAt),
    p.campaign.timeZone,
  );
  const pay = { label: `Pay ${amount}`, url: `${appUrl()}/pledges/${p.id}/pay` };
  return { amount, card, reason, due, pay, title: p.campaign.title };
}

/** The backer's email when a charge first fails; the reminders repeat it with the time left. */
export function paymentFailedEmail(p: PaymentRow, reminder = 0): QueuedEmail {
  const f = facts(p);
  const fix =
    p.chargeStatus === "requires_action"
      ? "Open the link below to confirm the payment with your bank, or pay with another card."
      : "Pay with another card on the page below. You are charged once, only when you press Pay.";
  return {
    dedupeKey: reminder === 0 ? `charge-failed:${p.id}:1` : `charge-reminder:${p.id}:${reminder}`,
    to: p.user.email,
    subject:
      reminder === 0
        ? `Action needed: your ${f.amount} payment for "${f.title}" didn't go through`
        : `Reminder: pay ${f.amount} by ${f.due} to keep your place at "${f.title}"`,
    ...renderEmail({
      heading: reminder === 0 ? "Your payment didn't go through" : "Your payment is still due",
      paragraphs: [
        reminder === 0
          ? `"${f.title}" ${wentAhead(p.campaign) ? "is going ahead by the organizer's choice" : "reached its goal"}, so everyone who committed is being charged. We tried to charge ${f.card} ${f.amount}, and it didn't work: ${f.reason}`
          : `Your ${f.amount} payment for "${f.title}" has not gone through yet: ${f.reason}`,
        `${fix} Please pay by ${f.due}.`,
        `If it isn't paid by then, your place is released and you won't be charged.`,
      ],
      action: f.pay,
    }),
  };
}

/** The window closed unpaid: the backer hears that their place was released, the organizer that one payment was dropped. */
export function droppedEmails(p: PaymentRow): QueuedEmail[] {
  const f = facts(p);
  const who = p.user.name?.trim() || (p.attendeeNumber ? `Attendee #${p.attendeeNumber}` : "An attendee");
  return [
    {
      dedupeKey: `charge-dropped:${p.id}`,
      to: p.user.email,
      subject: `Your place at "${f.title}" was released`,
      ...renderEmail({
        heading: "Your place was released",
        paragraphs: [
          `Your ${f.amount} payment for "${f.title}" wasn't completed by ${f.due}, so your commitment was dropped and your place released.`,
          "You have not been charged, and you won't be.",
        ],
        action: { label: "View the event", url: `${appUrl()}/campaign/${p.campaign.id}` },
      }),
    },
    {
      dedupeKey: `charge-dropped-organizer:${p.id}`,
      to: p.campaign.creator.email,
      subject: `A payment for "${f.title}" was dropped`,
      ...renderEmail({
        heading: "A payment was dropped",
        paragraphs: [
          `${who} (${p.user.email}) did not complete their ${f.amount} payment by ${f.due}. Their commitment was dropped and they were not charged.`,
          "The manage page lists every payment that failed, is being retried, or was dropped.",
        ],
        action: { label: "Manage event", url: `${appUrl()}/campaign/${p.campaign.id}/manage` },
      }),
    },
  ];
}

/**
 * Called once a pledge's charge failed or needs authentication: writes the backer's email to the
 * outbox; the email job sends it. One email per failure episode, not per attempt (issue 14: a
 * retried soft decline sent one email per click); the reminders follow every 48 hours.
 */
export async function onChargeFailed(pledgeId: string): Promise<void> {
  const pledge = await db.pledge.findUnique({ where: { id: pledgeId }, select: paymentSelect });
  // back on the waitlist (issue 20): its own email asked for a new card, there is nothing to pay
  if (!pledge || !isRecoverable(pledge.chargeStatus) || pledge.waitlistedAt) return;
  await db.$transaction(async (tx) => {
    const [row] = await withSeats(tx, [pledge]);
    await queueEmail(tx, paymentFailedEmail(row!));
  });
}
