import "server-only";
import { appUrl } from "@/lib/env";
import { formatCents } from "@/lib/format";
import { waitlistConsent } from "@/lib/access/pledge-policy";
import { isConfirmed, isPaidEvent } from "@/lib/events/lifecycle";
import { eachCents } from "@/lib/events/money-sentences";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";
import { displayTicketCode } from "@/lib/security/ticket-token";
import { TICKET_CID, ticketAttachment, type EmailTicket } from "@/lib/email/ticket-image";
import {
  calendar,
  campaignUrl,
  coverImage,
  startsLine,
  type EmailCampaign,
  type Recipient,
} from "@/lib/campaigns/emails";

/**
 * The waitlist's emails (issue 20, DESIGN §1 "capacity and waitlist"): joining, promotion, a
 * promotion whose charge failed, the waitlist closing at the start, and giving up a place. Each
 * dedupe key names the cause, so a cause emails once however often it runs.
 */

const myCommitments = () => `${appUrl()}/profile#my-commitments`;

export function waitlistJoinedEmail(
  c: EmailCampaign,
  to: Recipient,
  pledgeId: string,
  position: number,
  seats = 1,
): QueuedEmail {
  return {
    dedupeKey: `waitlist-joined:${pledgeId}`,
    to: to.email,
    subject: `You're on the waitlist for "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: `You're #${position} on the waitlist`,
      paragraphs: [
        `"${c.title}" is full, so you joined its waitlist at position ${position}.`,
        waitlistConsent(c, undefined, seats),
        startsLine(c, false),
      ],
      action: { label: "See your place in line", url: myCommitments() },
    }),
  };
}

/**
 * Issue 34: a promotion sends ONE email. Someone promoted into an event already going ahead (at or
 * after its tip or go-ahead), and counted on arrival, was told everything by the promotion's email
 * ("A place opened: you're in", with the charge): the "Event Confirmed!" that follows the tip
 * (lib/campaigns/notifications queueConfirmedEmails, lib/derived-emails) is not theirs. One promoted
 * before the tip hears of the tip like everyone; one whose condition held only later hears when it did.
 */
export const toldAtPromotion = (
  p: { promotedAt: Date | null; memberSince: Date | null },
  c: { fundedAt: Date | null },
): boolean =>
  p.promotedAt !== null &&
  c.fundedAt !== null &&
  p.memberSince !== null &&
  p.promotedAt.getTime() >= c.fundedAt.getTime() &&
  p.memberSince.getTime() <= p.promotedAt.getTime();

/** toldAtPromotion in SQL, for the pledge under `p` and its campaign under `c`. */
export const toldAtPromotionSql = (p: string, c: string) =>
  `(${p}."promotedAt" IS NOT NULL AND ${c}."fundedAt" IS NOT NULL AND ${p}."memberSince" IS NOT NULL` +
  ` AND ${p}."promotedAt" >= ${c}."fundedAt" AND ${p}."memberSince" <= ${p}."promotedAt")`;

export function promotedEmail(
  c: EmailCampaign & { status: string },
  to: Recipient,
  pledgeId: string,
  /** issue 21: false for a commitment whose personal threshold does not hold yet */
  counted = true,
  /** the promotion's moment: a commitment demoted and promoted again is told again */
  promotedAt: Date = new Date(0),
): QueuedEmail {
  const paid = isPaidEvent(c);
  const confirmed = isConfirmed(c.status) && counted;
  return {
    dedupeKey: `waitlist-promoted:${pledgeId}:${promotedAt.getTime()}`,
    to: to.email,
    subject: `A place opened: you're in for "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "A place opened — you're in!",
      paragraphs: [
        `You were first in line for "${c.title}", and a place just opened.`,
        !counted
          ? "You hold it now. As you asked, you count — and are charged — only once your number of people is in; if it isn't by the deadline, you're released and never charged."
          : paid && confirmed
            ? `The event is going ahead, and as agreed when you joined the waitlist your card is being charged ${formatCents(eachCents(c))} now. If the payment is declined we'll email you; otherwise there is nothing more to do, and your receipt will be under My commitments.`
            : paid
              ? `Your card will be charged ${formatCents(eachCents(c))} only if the event reaches its goal.`
              : "The event is free: your place is confirmed.",
        startsLine(c),
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
    attachments: calendar(c, confirmed ? "CONFIRMED" : "TENTATIVE"),
  };
}

/**
 * Issue 36: the door ticket of a place taken from the waitlist into an event going ahead. Its
 * promotion email was written before the place was paid (no ticket yet) and no "Event Confirmed!"
 * follows (toldAtPromotion), so the ticket comes on its own once the place is confirmed, once.
 */
export const ticketEmailKey = (campaignId: string, userId: string) => `ticket:${campaignId}:${userId}`;

export function promotedTicketEmail(c: EmailCampaign, to: Recipient, ticket: EmailTicket): QueuedEmail {
  const code = displayTicketCode(ticket.code);
  return {
    dedupeKey: ticketEmailKey(c.id, to.userId),
    to: to.email,
    subject: `Your ticket for "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "Your ticket",
      paragraphs: [
        `Your place at "${c.title}" is confirmed.`,
        `Your ticket code is ${code}. Show the QR code below at the door, or give the code. My commitments shows your ticket too.`,
        startsLine(c),
      ],
      action: { label: "View the event", url: campaignUrl(c) },
      inlineImage: { cid: TICKET_CID, alt: `Ticket QR code, code ${code}`, caption: code },
    }),
    attachments: [ticketAttachment(ticket)],
  };
}

export function promotionFailedEmail(
  c: EmailCampaign,
  to: Recipient,
  pledgeId: string,
  attempt: number,
  reason: string,
): QueuedEmail {
  return {
    dedupeKey: `waitlist-promotion-failed:${pledgeId}:${attempt}`,
    to: to.email,
    subject: `Your card was declined for "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "A place opened, but your card was declined",
      paragraphs: [
        `A place opened for you at "${c.title}", but charging ${formatCents(eachCents(c))} to your card failed: ${reason}`,
        "The place went to the next person in line, so nothing was charged. You keep your place on the waitlist: update your card and you're next in line again.",
      ],
      action: { label: "Update your card", url: myCommitments() },
    }),
  };
}

export function waitlistClosedEmail(c: EmailCampaign, to: Recipient, pledgeId: string): QueuedEmail {
  return {
    dedupeKey: `waitlist-closed:${pledgeId}`,
    to: to.email,
    subject: `No place opened for "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "The waitlist has closed",
      paragraphs: [
        `"${c.title}" has started and no place opened for you, so the waitlist is closed.`,
        isPaidEvent(c)
          ? "Nothing was charged, and your saved card will not be used for this event."
          : "Thanks for your interest — we hope to see you at the next one.",
      ],
      action: { label: "Find another event", url: `${appUrl()}/` },
    }),
  };
}

export function gaveUpEmail(
  c: EmailCampaign,
  to: Recipient,
  pledgeId: string,
  chargedCents: number,
): QueuedEmail {
  return {
    dedupeKey: `gave-up:${pledgeId}`,
    to: to.email,
    subject: `You gave up your place at "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "You gave up your place",
      paragraphs: [
        `Your place at "${c.title}" went to the first person on the waitlist.`,
        chargedCents > 0
          ? `Your payment of ${formatCents(chargedCents)} is refunded as soon as they have paid for the place; we'll email you then. It can take 5 to 10 days to show on your statement.`
          : "Nothing was charged, and your saved card will not be used for this event.",
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
  };
}
