import "server-only";
import { appUrl } from "@/lib/env";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";
import type { Standing } from "@/lib/events/standing";
import { cardShort, formatCents, plural } from "@/lib/format";

/**
 * The ledger's own email (issue 34): the backer hears when their refund went through — a place
 * given up once its taker has paid ("we'll email you then", the give-up email promised), a
 * withdrawal after a change, a cancelled event, a dropped late payment. Queued in the transaction
 * that records the refund (lib/ledger/refunds recordRefund), under a key naming the pledge's refund,
 * so it exists once, and only once the refund did.
 */
export type RefundedPledge = {
  id: string;
  amountCents: number;
  cardBrand: string | null;
  cardLast4: string | null;
  standing: Standing;
  user: { email: string };
  campaign: { id: string; title: string; status: string };
};

export const refundEmailKey = (pledgeId: string) => `refunded:${pledgeId}`;

/** Why the money came back, in the backer's words. */
function becauseOf(p: RefundedPledge): string {
  const title = `"${p.campaign.title}"`;
  if (p.campaign.status === "cancelled") return `${title} was cancelled`;
  switch (p.standing) {
    case "gave_up":
      return `you gave up your place at ${title} and the person who took it has paid`;
    case "withdrawn":
      return `you withdrew from ${title}`;
    case "dropped":
      return `your place at ${title} was released`;
    default:
      return `of your commitment to ${title}`;
  }
}

/**
 * A seat of a group's payment (issue 37) whose refund goes to its payer, the holder, though the seat is
 * not theirs any more (a named friend claimed it): the reason is said of the seat, not of "you".
 */
function becauseOfSeat(p: RefundedPledge): string {
  const title = `"${p.campaign.title}"`;
  switch (p.standing) {
    case "gave_up":
      return `the seat you paid for at ${title} was given up and the person who took it has paid`;
    case "dropped":
      return `the seat you paid for at ${title} was released`;
    default:
      return `the seat you paid for at ${title} was withdrawn`;
  }
}

/**
 * `payer`: a seat of a group's payment is refunded to the holder's card, so the holder hears of it
 * (their address, their card), never the named friend who claimed the seat.
 */
export function refundIssuedEmail(
  p: RefundedPledge,
  payer?: { email: string; cardBrand: string | null; cardLast4: string | null },
): QueuedEmail {
  const amount = formatCents(p.amountCents);
  const paid = payer ?? { email: p.user.email, cardBrand: p.cardBrand, cardLast4: p.cardLast4 };
  const card = paid.cardLast4 ? `your ${cardShort(paid.cardBrand, paid.cardLast4)}` : "your card";
  const because = payer && p.campaign.status !== "cancelled" ? becauseOfSeat(p) : becauseOf(p);
  return {
    dedupeKey: refundEmailKey(p.id),
    to: paid.email,
    subject: `Refunded: ${amount} for "${p.campaign.title}"`,
    ...renderEmail({
      heading: "Your refund is on its way",
      paragraphs: [
        `We refunded ${amount} to ${card} because ${because}.`,
        "It can take 5 to 10 days to show on your statement. There is nothing more for you to do.",
      ],
      action: { label: "See My commitments", url: `${appUrl()}/profile#my-commitments` },
    }),
  };
}

/**
 * A cancelled event's refund of a group's payment (issue 37), to its payer, once: each seat is refunded
 * its share (one partial refund per seat), and the holder hears of them together, from the transaction
 * that recorded the last seat's (lib/ledger/refunds recordRefund). "We refunded $135.00 for 3 people".
 */
export function groupRefundEmail(g: {
  groupId: string;
  cents: number;
  seats: number;
  to: string;
  cardBrand: string | null;
  cardLast4: string | null;
  campaign: { id: string; title: string };
}): QueuedEmail {
  const amount = formatCents(g.cents);
  const card = g.cardLast4 ? `your ${cardShort(g.cardBrand, g.cardLast4)}` : "your card";
  const forWhom = g.seats > 1 ? ` for ${plural(g.seats, "person", "people")}` : "";
  return {
    dedupeKey: `refunded-group:${g.groupId}:cancelled`,
    to: g.to,
    subject: `Refunded: ${amount} for "${g.campaign.title}"`,
    ...renderEmail({
      heading: "Your refund is on its way",
      paragraphs: [
        `We refunded ${amount}${forWhom} to ${card} because "${g.campaign.title}" was cancelled.`,
        "It can take 5 to 10 days to show on your statement. There is nothing more for you to do.",
      ],
      action: { label: "See My commitments", url: `${appUrl()}/profile#my-commitments` },
    }),
  };
}
