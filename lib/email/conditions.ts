import "server-only";
import { formatCents, plural } from "@/lib/format";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";
import {
  calendar,
  campaignUrl,
  coverImage,
  startsLine,
  type EmailCampaign,
  type Recipient,
} from "@/lib/email/templates";

/**
 * Personal thresholds and the early go-ahead (issue 21): the emails they cause. Each dedupe key
 * names the cause, so a cause emails once however often it runs.
 */

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
        c.ticketPriceCents > 0
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
    dedupeKey: `go-ahead:${c.id}:${to.userId}`,
    to: to.email,
    subject: `"${c.title}" is going ahead`,
    ...renderEmail({
      imageUrl: coverImage(c),
      heading: "The organizer is going ahead",
      paragraphs: [
        `"${c.title}" reached ${members} of the ${c.goal} people it aimed for. The organizer said from the start that it might go ahead from 80% of the goal, and chose to.`,
        chargeCents > 0
          ? `Your card is being charged ${formatCents(chargeCents)} now, as for any confirmed event. We'll email you when the payment goes through.`
          : "The event is free: it is happening, and you're in.",
        startsLine(c),
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
    attachments: calendar(c, "CONFIRMED"),
  };
}
