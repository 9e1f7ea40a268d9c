import "server-only";
import { appUrl } from "@/lib/env";
import { formatCents, plural } from "@/lib/format";
import { formatEventRange, formatInZone } from "@/lib/campaigns/event-time";
import { placeFor, placeLine, type WhenWhereRow } from "@/lib/campaigns/place";
import { coverUrl } from "@/lib/images/limits";
import { isCrowdfund, isPaidEvent, progress } from "@/lib/events/lifecycle";
import {
  cancelledMoneyText,
  confirmedMoneyText,
  collectingSentence,
  depositSentences,
  happeningText,
  wentAhead,
} from "@/lib/events/money-sentences";
import { icsAttachment } from "@/lib/campaigns/ics";
import { displayTicketCode } from "@/lib/security/ticket-token";
import { TICKET_CID, ticketAttachment, type EmailTicket } from "@/lib/email/ticket-image";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";
import { unsubscribeLinks } from "@/lib/email/unsubscribe";

/**
 * Every email the app sends, as data for queueEmail(tx, ...). Each dedupe key names the cause and
 * the recipient, so a cause produces one email per recipient however often it runs.
 * Transactional mail (about money or a commitment) has no unsubscribe link; reminders, digests and
 * organizer updates have one, and are not sent to users who opted out (callers check emailOptOut).
 */

export type EmailCampaign = {
  id: string;
  title: string;
  description: string;
  deadline: Date;
  goal: number;
  committedCount: number;
  ticketPriceCents: number;
  /** issue 36: the show-up deposit charged with the ticket (0: none), kept this long after the end */
  depositCents: number;
  depositGraceHours: number;
  /** the uploaded cover (issue 17), shown at the top of the email */
  coverId?: string | null;
  /** a crowdfund counts dollars (raisedCents) against its goal, not people */
  pactType?: string | null;
  raisedCents?: bigint | number;
  /** issue 34: the early go-ahead, offered (said in the commit email) or taken (said instead of "reached its goal") */
  earlyGoAhead?: boolean;
  goAheadAt?: Date | null;
  goAheadCount?: number | null;
  // time and place (issue 16): every recipient is a committer or the organizer, who may see the exact place
} & WhenWhereRow;

export type Recipient = { userId: string; email: string; name?: string | null };

export const campaignUrl = (c: { id: string }) => `${appUrl()}/campaign/${c.id}`;
const price = (c: EmailCampaign) => (c.ticketPriceCents > 0 ? formatCents(c.ticketPriceCents) : "free");
/** `exact`: the attendee-only address too (everyone but someone waiting on the waitlist, issue 20) */
const place = (c: EmailCampaign, exact = true) => placeLine(placeFor(c, exact));
/** The event's calendar entry; none until it has a start (issue 16: no entry booked at the deadline). */
export const calendar = (c: EmailCampaign, status: "TENTATIVE" | "CONFIRMED" | "CANCELLED") =>
  c.startsAt
    ? [
        icsAttachment({
          campaignId: c.id,
          title: c.title,
          description: `${c.description}\n\n${campaignUrl(c)}`,
          url: campaignUrl(c),
          start: c.startsAt,
          end: c.endsAt,
          timeZone: c.timeZone,
          location: place(c),
          sequence: c.calendarSequence,
          status,
        }),
      ]
    : [];
export const coverImage = (c: Pick<EmailCampaign, "coverId">) =>
  c.coverId ? `${appUrl()}${coverUrl(c.coverId, "medium")}` : undefined;
/** Where the event stands, in people or — for a crowdfund — dollars (the campaign core's progress). */
const standing = (c: EmailCampaign) => {
  const p = progress({ ...c, status: "pending" });
  const more = Math.max(0, p.goal - p.value);
  return p.unit === "dollars"
    ? {
        more,
        of: `${formatCents(p.value * 100)} of ${formatCents(p.goal * 100)} pledged`,
        short: `${formatCents(more * 100)} more`,
        long: `${formatCents(more * 100)} more in pledges`,
      }
    : {
        more,
        of: `${p.value} of ${plural(p.goal, "commitment", "commitments")}`,
        short: `${more} more`,
        long: plural(more, "more person", "more people"),
      };
};
const needed = (c: EmailCampaign) => standing(c).more;
/** A time in the event's zone, with its abbreviation. */
export const when = (d: Date, c: EmailCampaign) => formatInZone(d, c.timeZone);
/** "It starts Tue, Dec 5, 2026, 7:30 PM – 10:00 PM EST at Roxy Cinema, 2 6th Ave." or the date to come. */
export const startsLine = (c: EmailCampaign, exact = true) => {
  const where = place(c, exact);
  if (!c.startsAt)
    return `The date is to be announced: the organizer will post it on the event page.${where ? ` Where: ${where}.` : ""}`;
  return `It starts ${formatEventRange(c.startsAt, c.endsAt, c.timeZone)}${where ? ` at ${where}` : ""}.`;
};

/** To the backer when they commit; the calendar entry is TENTATIVE until the threshold is met. */
export function commitReceivedEmail(
  c: EmailCampaign & { pactType?: string | null },
  to: Recipient,
  pledgeId: string,
  pledgeCents = 0,
  /** issue 37: the people this commitment holds, the committer included */
  seats = 1,
): QueuedEmail {
  // the payment: the pledge, or the ticket and the show-up deposit charged with it (issue 36)
  // (issue 37: a group's one payment, seats × (price + deposit))
  const amount = isCrowdfund(c) ? pledgeCents : (c.ticketPriceCents + c.depositCents) * seats;
  // this commitment reached the goal, or came after it or after the organizer went ahead
  const reached = needed(c) === 0 || wentAhead(c);
  const why = wentAhead(c) ? "The organizer went ahead with the event" : "The goal is reached";
  const charge = reached
    ? isPaidEvent(c)
      ? `${why}, so your card is being charged ${formatCents(amount)} now. We'll email you when the payment goes through.`
      : wentAhead(c)
        ? "This event is free, and the organizer went ahead with it: it is happening."
        : "This event is free, and it reached its goal: it is happening."
    : // issue 34: the event's money sentence, the go-ahead said when it is offered
      collectingSentence(c, { deadline: when(c.deadline, c), seats });
  return {
    dedupeKey: `commit:${pledgeId}:${to.userId}`,
    to: to.email,
    subject: `You're committed to "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "You're Committed!",
      paragraphs: [
        seats > 1
          ? `Thanks for committing to "${c.title}" for you and ${seats - 1 === 1 ? "1 guest" : `${seats - 1} guests`}: ${seats} people, each counted toward the goal.`
          : `Thanks for committing to "${c.title}".`,
        charge,
        ...depositSentences(c, seats),
        ...(reached ? [] : [`It needs ${standing(c).long}. Share the event to get there.`]),
        c.startsAt
          ? reached
            ? "The calendar entry is attached."
            : "A tentative calendar entry is attached; it becomes confirmed when the event is."
          : startsLine(c),
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
    attachments: calendar(c, reached ? "CONFIRMED" : "TENTATIVE"),
  };
}

/**
 * To every attendee when the threshold is met; the same calendar UID, now CONFIRMED. The amount is
 * the ticket's part, `depositChargedCents` the deposit (issue 36); a group's `seats` (issue 37): confirmedMoneyText.
 */
export function eventConfirmedEmail(
  c: EmailCampaign,
  to: Recipient,
  amountChargedCents: number,
  ticket?: EmailTicket,
  depositChargedCents = 0,
  group: { seats?: number; paidByHolder?: boolean } = {},
): QueuedEmail {
  const code = ticket ? displayTicketCode(ticket.code) : null;
  const charged = amountChargedCents + depositChargedCents;
  return {
    dedupeKey: `confirmed:${c.id}:${to.userId}`,
    to: to.email,
    // issue 34: an event the organizer took ahead below its goal did not "reach its goal"
    subject: wentAhead(c) ? `"${c.title}" is going ahead` : `Event Confirmed! "${c.title}" is happening`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: wentAhead(c) ? "The organizer is going ahead" : "Event Confirmed!",
      paragraphs: [
        happeningText(c),
        confirmedMoneyText({ chargedCents: charged, ...group }),
        ...(depositChargedCents > 0 ? depositSentences(c) : []),
        c.startsAt
          ? `${startsLine(c)} The attached calendar entry replaces the tentative one.`
          : startsLine(c),
        ...(code
          ? [
              `Your ticket code is ${code}. Show the QR code below at the door, or give the code. My commitments shows your ticket too.`,
            ]
          : []),
      ],
      action: { label: "View the event", url: campaignUrl(c) },
      ...(code
        ? { inlineImage: { cid: TICKET_CID, alt: `Ticket QR code, code ${code}`, caption: code } }
        : {}),
    }),
    attachments: [...(ticket ? [ticketAttachment(ticket)] : []), ...(calendar(c, "CONFIRMED") ?? [])],
  };
}

/** To every committer and the organizer when the deadline passes below the threshold. */
export function expiredEmail(c: EmailCampaign, to: Recipient, role: "backer" | "organizer"): QueuedEmail {
  return {
    dedupeKey: `expired:${c.id}:${to.userId}`,
    to: to.email,
    subject: `"${c.title}" did not reach its goal — nobody was charged`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "The goal was not reached",
      paragraphs: [
        `The deadline for "${c.title}" passed with ${c.committedCount} of ${plural(c.goal, "commitment", "commitments")} needed.`,
        role === "organizer"
          ? "Nobody was charged and every saved card was released. You can create the event again with a lower goal or a later deadline."
          : isPaidEvent(c)
            ? "Nobody was charged, and your saved card was released for this event."
            : "The event will not take place.",
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
    attachments: calendar(c, "CANCELLED"),
  };
}

/** 48 hours before the deadline, to the organizer and committers of events still below the threshold. */
export function deadlineReminderEmail(
  c: EmailCampaign,
  to: Recipient,
  role: "backer" | "organizer",
): QueuedEmail {
  const s = standing(c);
  return {
    dedupeKey: `reminder-48h:${c.id}:${to.userId}`,
    to: to.email,
    subject: `"${c.title}" needs ${s.short} — 48 hours left`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: `Needs ${s.short}`,
      paragraphs: [
        `"${c.title}" has ${s.of} and the deadline is ${when(c.deadline, c)}.`,
        role === "organizer"
          ? `It needs ${s.long} to happen. Share it with anyone who might come.`
          : `It needs ${s.long} to happen. Know someone who'd join? Send them the link.`,
      ],
      action: { label: "Share the event", url: campaignUrl(c) },
      unsubscribe: unsubscribeLinks(to.userId),
    }),
  };
}

/** At most one per hour per event: new commitments to the organizer. `hourKey` names the hour (UTC). */
export function organizerCommitDigestEmail(
  c: EmailCampaign,
  to: Recipient,
  newCount: number,
  hourKey: string,
): QueuedEmail {
  const s = standing(c);
  return {
    dedupeKey: `commit-digest:${c.id}:${hourKey}:${to.userId}`,
    to: to.email,
    subject: `${plural(newCount, "new commitment", "new commitments")} to "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: `${plural(newCount, "new commitment", "new commitments")}`,
      paragraphs: [
        `"${c.title}" now has ${s.of}${isCrowdfund(c) ? "" : ` (${price(c)})`}.`,
        s.more > 0 ? `It needs ${s.long} by ${when(c.deadline, c)}.` : "The goal has been reached!",
      ],
      action: { label: "Manage the event", url: `${campaignUrl(c)}/manage` },
      unsubscribe: unsubscribeLinks(to.userId),
    }),
  };
}

/** An organizer's update to everyone who committed. */
export function organizerUpdateEmail(
  c: Pick<EmailCampaign, "id" | "title">,
  to: Recipient,
  updateId: string,
  text: string,
): QueuedEmail {
  return {
    dedupeKey: `update:${updateId}:${to.userId}`,
    to: to.email,
    subject: `Update from the organizer of "${c.title}"`,
    ...renderEmail({
      heading: `Update: ${c.title}`,
      paragraphs: [text],
      action: { label: "View the event", url: campaignUrl(c) },
      unsubscribe: unsubscribeLinks(to.userId),
    }),
  };
}

/**
 * To attendees when the organizer cancels: the money in words by lib/events/money-sentences cancelledMoneyText
 * (issue 37: a group's seats, a named friend's seat paid by the holder); the `reason` (issue 34) quoted, escaped.
 */
export function cancelledEmail(
  c: EmailCampaign,
  to: Recipient,
  refundedCents: number,
  chargeInFlight = false,
  reason: string | null = null,
  group: { seats?: number; paidByHolder?: boolean } = {},
): QueuedEmail {
  return {
    dedupeKey: `cancelled:${c.id}:${to.userId}`,
    to: to.email,
    subject: `"${c.title}" was cancelled`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "Event cancelled",
      paragraphs: [
        `The organizer cancelled "${c.title}".`,
        ...(reason ? [`The reason given: ${reason}`] : []),
        cancelledMoneyText({ refundedCents, chargeInFlight, ...group }),
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
    attachments: calendar(c, "CANCELLED"),
  };
}

/** To the backer who withdrew (DESIGN §1 "withdrawing"): what happens to their card and any charge. */
export function withdrawnEmail(
  c: EmailCampaign,
  to: Recipient,
  pledgeId: string,
  refundCents: number,
): QueuedEmail {
  return {
    dedupeKey: `withdrawn:${pledgeId}`,
    to: to.email,
    subject: `You withdrew from "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "You withdrew your commitment",
      paragraphs: [
        `You are no longer committed to "${c.title}".`,
        refundCents > 0
          ? `Your payment of ${formatCents(refundCents)} is refunded in full; it can take 5 to 10 days to show on your statement.`
          : "Nothing was charged, and your saved card will not be used for this event.",
        "Changed your mind? You can commit again from the event page while it is open.",
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
  };
}
