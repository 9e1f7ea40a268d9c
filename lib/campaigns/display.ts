/** Display helpers shared by server and client components (no server imports). */
import type { CampaignCard } from "@/lib/campaigns/queries";
import { eventBadge, isRejectable } from "@/lib/events/lifecycle";
import type { Badge } from "@/lib/events/standing";
import { formatDayInZone, formatInZone } from "@/lib/campaigns/event-time";

export const PAYMENT_TYPE_LABELS: Record<string, string> = {
  venmo: "Venmo",
  paypal: "PayPal",
  other: "Other",
};

/** Venmo handles are shown with an @ prefix (SPEC §2). */
export function paymentHandle(type: string | null, method: string | null): string | null {
  if (!method) return null;
  if (type === "venmo") return method.startsWith("@") ? method : `@${method}`;
  return method;
}

/** What a card shows; the description only as far as three clamped lines can show it. */
export type HomeCard = Pick<
  CampaignCard,
  | "id"
  | "title"
  | "description"
  | "goal"
  | "committedCount"
  | "deadline"
  | "approvalStatus"
  | "isTest"
  | "ticketPriceCents"
> & {
  /** the event's one state badge, decided on the server at render (issue 16: cards show their status) */
  badge: Badge;
  /** "Sat, Dec 5, 2026, 7:30 PM EST" or "Commit by Dec 1, 2026", in the event's zone */
  when: string;
  /** the venue or the public area; never an attendee-only address */
  where: string | null;
  coverId: string | null;
  /** whether an admin may still reject it (not once it tipped) */
  rejectable: boolean;
};

/** The longest description start a card can show in its three lines (the page sends no more). */
const CARD_DESCRIPTION_MAX = 320;

export const homeCard = (c: CampaignCard, now: Date): HomeCard => ({
  badge: eventBadge(c, now),
  when: c.startsAt
    ? formatInZone(c.startsAt, c.timeZone)
    : `Date to be announced · commit by ${formatDayInZone(c.deadline, c.timeZone)}`,
  where: c.venue ?? c.area,
  coverId: c.coverId,
  rejectable: isRejectable(c.status),
  id: c.id,
  title: c.title,
  description:
    c.description.length > CARD_DESCRIPTION_MAX
      ? `${Array.from(c.description)
          .slice(0, CARD_DESCRIPTION_MAX - 1)
          .join("")}…`
      : c.description,
  goal: c.goal,
  committedCount: c.committedCount,
  deadline: c.deadline,
  approvalStatus: c.approvalStatus,
  isTest: c.isTest,
  ticketPriceCents: c.ticketPriceCents,
});
