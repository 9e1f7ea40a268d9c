/** Display helpers shared by server and client components (no server imports). */
import type { CampaignCard } from "@/lib/campaigns/queries";
import {
  eventBadge,
  isJoinable,
  isRejectable,
  phaseOf,
  placesLeft,
  type JoinFacts,
} from "@/lib/events/lifecycle";
import type { Badge } from "@/lib/events/standing";
import { formatCents, plural } from "@/lib/format";
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
  /** "Free", "$20.00", "$20.00 + $10.00 deposit" (issue 36: a show-up deposit is said on the card too) */
  price: string;
  /** "Sat, Dec 5, 2026, 7:30 PM EST" or "Commit by Dec 1, 2026", in the event's zone */
  when: string;
  /** the venue or the public area; never an attendee-only address */
  where: string | null;
  coverId: string | null;
  /** whether an admin may still reject it (not once it tipped) */
  rejectable: boolean;
  /** "3 places left" while a newcomer can still join an event with a capacity, else null */
  placesLeft: string | null;
};

/**
 * "3 places left", "1 place left", "Full: the waitlist is open" — on events with a capacity while a
 * newcomer can still join (lib/events/lifecycle isJoinable); null otherwise.
 */
export function placesLeftText(
  c: JoinFacts & { capacity: number | null; pledgeCount: number },
  now: Date,
): string | null {
  if (c.capacity === null || !isJoinable(c, now)) return null;
  const left = placesLeft(c);
  return left === 0 ? "Full: the waitlist is open" : `${plural(left, "place", "places")} left`;
}

/**
 * What happens next on a confirmed event (issue 34): "Happening · 10 going", or once it started
 * "Happened · 10 went"; the page adds the start in the event's zone. Null before it is confirmed.
 */
export function happeningLine(
  c: { status: string; deadline: Date; committedCount: number; startsAt: Date | null },
  now: Date,
): string | null {
  const phase = phaseOf(c, now);
  if (phase !== "confirmed" && phase !== "charged") return null;
  const over = c.startsAt !== null && c.startsAt.getTime() <= now.getTime();
  return over ? `Happened · ${c.committedCount} went` : `Happening · ${c.committedCount} going`;
}

/** The longest description start a card can show in its three lines (the page sends no more). */
const CARD_DESCRIPTION_MAX = 320;

export const homeCard = (c: CampaignCard, now: Date): HomeCard => ({
  badge: eventBadge(c, now),
  price: `${c.ticketPriceCents === 0 ? "Free" : formatCents(c.ticketPriceCents)}${
    c.depositCents > 0 ? ` + ${formatCents(c.depositCents)} deposit` : ""
  }`,
  when: c.startsAt
    ? formatInZone(c.startsAt, c.timeZone)
    : `Date to be announced · commit by ${formatDayInZone(c.deadline, c.timeZone)}`,
  where: c.venue ?? c.area,
  coverId: c.coverId,
  rejectable: isRejectable(c.status),
  placesLeft: placesLeftText(c, now),
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
