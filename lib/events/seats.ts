import { isCrowdfund, placesLeft, type PactKind } from "@/lib/events/lifecycle";
import { plural } from "@/lib/format";

/**
 * Group commitments (issue 37 item 1, docs/decisions/group-commitments.md): the one rule of which
 * events take groups, how many seats one commitment may hold, and what a group's seats mean for the
 * event's places. Every surface (the create and edit forms, the commit dialog, the commit decision,
 * the waitlist) asks here.
 *
 * - A commitment holds 1 to M seats; the organizer sets M (default 4; 1 turns groups off).
 * - Each seat is its own pledge sharing the group id (the holder's own seat's id), so each counts
 *   toward the goal and the capacity, has its own attendee number and its own ticket.
 * - Free and paid pactions take groups. A paid group pays ONE charge of seats × price on the holder's
 *   card at the tip (lib/ledger/group-charges.ts), covering its seats; at an event with a show-up
 *   deposit, seats × (price + deposit), each seat's deposit refunded at its own check-in by a partial
 *   refund of that payment (lib/ledger/deposits). Crowdfunds count dollars, not people, and never take groups.
 * - A group that does not fit waits as a group. The holder says at commit whether part of it may take
 *   places that open (partial promotion); if not, a group at the head of the line that does not fit
 *   keeps its place and the opening goes to the next commitment that fits.
 */

export const SEATS_MAX = 10;
export const SEATS_DEFAULT = 4;

export const SEAT_TEXTS = {
  invalid: `Choose from 1 to ${SEATS_MAX} people.`,
  formInvalid: `People per commitment must be a whole number from 1 to ${SEATS_MAX}`,
  tooMany: (max: number) =>
    max === 1
      ? "This event takes one person per commitment."
      : `This event takes at most ${max} people per commitment.`,
  aboveCapacity: (capacity: number) =>
    `This event has ${plural(capacity, "place", "places")}, so a commitment can hold at most ${capacity.toLocaleString("en-US")}.`,
  crowdfund: "A crowdfund counts dollars, so it takes one person per commitment.",
  lateChange: "People per commitment can only be changed before anyone commits.",
} as const;

/** Why an event may not take groups, or null: crowdfunds never (free and paid pactions do, with a deposit too). */
export function groupsRefusal(c: PactKind): string | null {
  if (isCrowdfund(c)) return SEAT_TEXTS.crowdfund;
  return null;
}

/** The most seats one commitment to `c` may hold now: its M, or 1 where groups are not taken. */
export const maxSeatsOf = (c: PactKind & { maxSeats: number }) => (groupsRefusal(c) ? 1 : c.maxSeats);

/** The most people the commit dialog offers for one commitment: M, never more than the event's places. */
export const seatChoicesOf = (c: PactKind & { maxSeats: number; capacity: number | null }) =>
  c.capacity === null ? maxSeatsOf(c) : Math.max(1, Math.min(maxSeatsOf(c), c.capacity));

/** Why a commitment of `seats` people is refused on `c`, or null. */
export function seatsRefusal(
  seats: number,
  c: PactKind & { maxSeats: number; capacity: number | null },
): string | null {
  if (seats === 1) return null;
  const max = maxSeatsOf(c);
  if (seats > max) return SEAT_TEXTS.tooMany(max);
  if (c.capacity !== null && seats > c.capacity) return SEAT_TEXTS.aboveCapacity(c.capacity);
  return null;
}

/** Whether a group of `seats` takes places now: it fits the places left (a group of one: a place is left). */
export const groupFits = (c: { capacity: number | null; pledgeCount: number }, seats: number) =>
  placesLeft(c) >= seats;

/** "you and 2 guests" — a group in words, from its holder's side. */
export const seatsText = (seats: number) =>
  seats <= 1 ? "just you" : `you and ${plural(seats - 1, "guest", "guests")}`;
