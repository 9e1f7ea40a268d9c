import "server-only";
import { formatCents, plural } from "@/lib/format";
import { wentAheadText } from "@/lib/events/money-sentences";
import { isPaidEvent } from "@/lib/events/lifecycle";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";
import {
  calendar,
  campaignUrl,
  coverImage,
  startsLine,
  type EmailCampaign,
  type Recipient,
} from "@/lib/campaigns/emails";

/**
 * Personal thresholds and the early go-ahead (issue 21): the emails they cause. Each dedupe key
 * names the cause, so a cause emails once however often it runs.
 */

/** The backer committed with a condition that does not hold yet: a place, not counted, not charged. */
export function conditionalCommitEmail(
  c: EmailCampaign,
  to: Recipient,
  pledgeId: string,
  minPeople: number,
  pledgeCents: number,
): QueuedEmail {
  return {
    dedupeKey: `commit:${pledgeId}:${to.userId}`,
    to: to.email,
    subject: `You're in for "${c.title}" — once ${minPeople} are`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: `You count once ${minPeople} people are in`,
      paragraphs: [
        `Thanks for committing to "${c.title}". You asked to count only if at least ${plural(minPeople, "person is", "people are")} in, you included; ${plural(c.committedCount, "person is", "people are")} now.`,
        pledgeCents > 0
          ? `You hold a place meanwhile. Your card is charged ${formatCents(pledgeCents)} only once you count and the event goes ahead; if your number isn't reached by the deadline, you're released and never charged.`
          : "You hold a place meanwhile. If your number isn't reached by the deadline, you're released.",
        "You can withdraw at any time until you count.",
        startsLine(c),
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
  };
}

/** The deadline passed and the backer's condition did not hold: released, never charged. */
export function conditionUnmetEmail(
  c: EmailCampaign,
  to: Recipient,
  pledgeId: string,
  minPeople: number,
): QueuedEmail {
  return {
    dedupeKey: `condition-unmet:${pledgeId}`,
    to: to.email,
    subject: `Your condition for "${c.title}" wasn't met`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "Your condition wasn't met",
      paragraphs: [
        `You asked to count for "${c.title}" only if at least ${plural(minPeople, "person was", "people were")} in. By the deadline ${plural(c.committedCount, "person was", "people were")}, so you were not counted.`,
        isPaidEvent(c)
          ? "Nothing was charged, and your saved card will not be used for this event."
          : "Nothing more is needed from you.",
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
  };
}

/** The organizer went ahead below the goal (early go-ahead): to each member, why and what they pay. */
export function goAheadEmail(
  c: EmailCampaign,
  to: Recipient,
  members: number,
  chargeCents: number,
): QueuedEmail {
  return {
    // issue 34: the member's one email about the event happening — the same key as "Event
    // Confirmed!", which their charge would otherwise queue too (lib/derived-emails.ts)
    dedupeKey: `confirmed:${c.id}:${to.userId}`,
    to: to.email,
    subject: `"${c.title}" is going ahead`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "The organizer is going ahead",
      paragraphs: [
        wentAheadText({ ...c, goAheadCount: members }, `"${c.title}"`),
        chargeCents > 0
          ? `Your card is being charged ${formatCents(chargeCents)} now, as when a goal is met. If the payment fails, we'll email you how to pay with another card.`
          : "The event is free: it is happening, and you're in. Nothing is charged.",
        startsLine(c),
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
    attachments: calendar(c, "CONFIRMED"),
  };
}
