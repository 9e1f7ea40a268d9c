import "server-only";
import { formatCents, plural } from "@/lib/format";
import { isConfirmed, isCrowdfund, isPaidEvent } from "@/lib/events/lifecycle";
import { eachCents, goAheadOffer, offersGoAhead } from "@/lib/events/money-sentences";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";
import {
  calendar,
  campaignUrl,
  coverImage,
  startsLine,
  when,
  type EmailCampaign,
  type Recipient,
} from "@/lib/campaigns/emails";

/* The emails of an organizer's edit (lib/campaigns/edit.ts): a new date or place, a later deadline. */

/**
 * To everyone who committed when the organizer changes the date or the place (issue 17): the new
 * when and where, and the calendar entry again with the same UID and a higher SEQUENCE, so
 * calendars move the entry instead of adding one. One per recipient per change (the sequence
 * names the change).
 */
export function eventChangedEmail(
  c: EmailCampaign,
  to: Recipient,
  status: "TENTATIVE" | "CONFIRMED",
  /** a change after the tip: the backer may withdraw (with a refund of any charge) until then */
  withdrawUntil: Date | null = null,
  /** issue 20: to someone waiting on the waitlist (no attendee-only address; they may leave at any time) */
  waiting = false,
): QueuedEmail {
  return {
    dedupeKey: `changed:${c.id}:${c.calendarSequence}:${to.userId}`,
    to: to.email,
    subject: `New date or place for "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "The date or place changed",
      paragraphs: [
        `The organizer of "${c.title}" changed when or where it happens.`,
        startsLine(c, !waiting),
        c.startsAt && !waiting ? "The attached calendar entry replaces the one you have." : "",
        waiting
          ? "You're still on the waitlist. If the new date or place does not work for you, you can leave the waitlist at any time from the event page; nothing has been charged."
          : "",
        withdrawUntil && !waiting
          ? `If the new date or place does not work for you, you may withdraw until ${when(withdrawUntil, c)} from the event page, and any charge is refunded in full.`
          : "",
      ].filter(Boolean),
      action: { label: withdrawUntil ? "Keep or withdraw" : "View the event", url: campaignUrl(c) },
    }),
    attachments: waiting ? [] : calendar(c, status),
  };
}

/**
 * Issue 31: to everyone who committed or is waiting when the organizer extends the deadline. They
 * agreed to "charged only if N commit by <date>", so they hear the old and the new date, and, before
 * the tip, that they may still withdraw (or leave the waitlist). No place in it: a waiting person may
 * not see the attendee-only address. One per recipient per new deadline (deadlines only move later).
 */
export function deadlineExtendedEmail(
  c: EmailCampaign & { status: string },
  to: Recipient,
  oldDeadline: Date,
  waiting: boolean,
  pledgeCents = 0,
): QueuedEmail {
  const by = "by the new deadline";
  const terms = isCrowdfund(c)
    ? `Your card will be charged your pledge of ${formatCents(pledgeCents)} only if the ${formatCents(c.goal * 100)} goal is met ${by}. Otherwise nobody pays.`
    : isPaidEvent(c)
      ? `Your card will be charged ${formatCents(eachCents(c))} only if ${plural(c.goal, "person commits", "people commit")} ${by}. Otherwise nobody pays.`
      : `This event is free. It happens only if ${plural(c.goal, "person commits", "people commit")} ${by}.`;
  // issue 34: the early go-ahead they agreed to still holds under the new deadline (the money sentences' words)
  const goAhead = !isConfirmed(c.status) && offersGoAhead(c) ? ` ${goAheadOffer(c)}` : "";
  const choice = isConfirmed(c.status)
    ? ""
    : waiting
      ? "You're still on the waitlist. If the new deadline does not work for you, you can leave the waitlist at any time from the event page; nothing has been charged."
      : `If the new deadline does not work for you, you may withdraw from the event page until the goal is reached${isPaidEvent(c) ? "; nothing has been charged" : ""}. Once it is reached, your commitment is binding.`;
  return {
    dedupeKey: `deadline-moved:${c.id}:${c.deadline.getTime()}:${to.userId}`,
    to: to.email,
    subject: `New deadline for "${c.title}"`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "The deadline moved later",
      paragraphs: [
        `The organizer of "${c.title}" moved its deadline from ${when(oldDeadline, c)} to ${when(c.deadline, c)}.`,
        waiting ? "" : terms + goAhead,
        choice,
      ].filter(Boolean),
      action: {
        label: isConfirmed(c.status) ? "View the event" : waiting ? "Stay or leave" : "Keep or withdraw",
        url: campaignUrl(c),
      },
    }),
  };
}
