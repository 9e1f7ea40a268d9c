import "server-only";
import type { Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { STANDING_PLEDGE } from "@/lib/events/lifecycle";
import { plural } from "@/lib/format";
import { seatsPriceText } from "@/lib/events/money-sentences";
import { isRecoverable } from "@/lib/ledger/pledge-state";

/**
 * A holder's seats (issue 37, docs/decisions/group-commitments.md): a commitment of several people
 * is the holder's own pledge (guest slot 0, whose id is the group's id) and their guest seats
 * (slots 1..M-1), each a pledge. Withdrawing takes them all; dropping seats takes guest seats only.
 */

export type Seat = {
  id: string;
  guestSlot: number;
  amount: number;
  amountCents: number;
  paymentMethodId: string | null;
  chargeStatus: string;
  waitlistedAt: Date | null;
};

const SEAT_SELECT = {
  id: true,
  guestSlot: true,
  amount: true,
  amountCents: true,
  paymentMethodId: true,
  chargeStatus: true,
  waitlistedAt: true,
} as const;

export const DROP_TEXTS = {
  tooMany: (guests: number) =>
    guests === 0
      ? "Your commitment is just you, so there is no seat to drop. To leave, withdraw."
      : `You hold ${plural(guests, "guest seat", "guest seats")}, so you can drop at most ${guests}.`,
} as const;

/** The holder's standing seats in the group of `own` (their own first), or just `own`. */
export async function groupSeatsOf(
  tx: Prisma.TransactionClient,
  holderId: string,
  own: Seat & { groupId: string | null },
): Promise<Seat[]> {
  if (!own.groupId) return [own];
  const guests = await tx.pledge.findMany({
    where: { groupId: own.groupId, userId: holderId, guestSlot: { gt: 0 }, ...STANDING_PLEDGE },
    select: SEAT_SELECT,
    orderBy: { guestSlot: "asc" },
  });
  return [own, ...guests];
}

/**
 * Which seats go: all of them (a withdrawal), or `drop` guest seats — those still waiting first (they
 * hold no place), then the highest slots. Refused when the holder has fewer guest seats.
 */
export function seatsToWithdraw(seats: Seat[], drop: number | undefined): Seat[] {
  if (!drop) return seats;
  const guests = seats.filter((s) => s.guestSlot > 0);
  if (drop > guests.length) throw new AppError("BAD_REQUEST", DROP_TEXTS.tooMany(guests.length));
  const order = [...guests].sort(
    (a, b) => Number(Boolean(b.waitlistedAt)) - Number(Boolean(a.waitlistedAt)) || b.guestSlot - a.guestSlot,
  );
  return order.slice(0, drop);
}

/**
 * A group as its holder reads it: the seats standing, how many of them still wait for a place, and
 * whether a guest seat may be dropped now (`canDrop`: set by My commitments from the withdraw rule —
 * open, or a guest seat still waiting, which may go at any time).
 */
/**
 * A holder's group as they read it: the seats they hold (`seats`, their own and their guests'), those
 * waiting, in words; `paysFor`: the standing seats their card pays for — theirs and those named friends
 * claimed (issue 37: a claimed seat stays in the group and its payment).
 */
export type GroupSeats = {
  seats: number;
  waiting: number;
  text: string;
  paysFor: number;
  /** the seats whose payment failed or waits for the bank: the group's one payment is for them */
  unpaid: number;
  canDrop?: boolean;
};

/** "You and 2 guests", and the seats still waiting: the words of a holder's group (My commitments, the event page). */
export function groupSeatsText(seats: number, waiting: number): string {
  const who = seats <= 1 ? "Just you" : `You and ${plural(seats - 1, "guest", "guests")}`;
  if (waiting === 0 || waiting === seats) return who;
  return `${who} — ${plural(waiting, "seat", "seats")} still waiting for a place`;
}

/** The standing seats of each group in `groupIds` (one query), as their holder reads them. */
export async function groupSeatsByGroup(
  client: Prisma.TransactionClient,
  groupIds: string[],
): Promise<Map<string, GroupSeats>> {
  const out = new Map<string, GroupSeats>();
  if (groupIds.length === 0) return out;
  const rows = await client.pledge.findMany({
    where: { groupId: { in: groupIds }, ...STANDING_PLEDGE },
    select: { id: true, groupId: true, guestSlot: true, standing: true, chargeStatus: true },
  });
  for (const r of rows) {
    const g = out.get(r.groupId!) ?? { seats: 0, waiting: 0, text: "", paysFor: 0, unpaid: 0 };
    out.set(r.groupId!, g);
    g.paysFor++;
    if (r.standing === "in" && isRecoverable(r.chargeStatus)) g.unpaid++;
    // the holder's own seat and the guest seats they hold (a claimed seat is its friend's, issue 37)
    if (r.guestSlot === 0 && r.id !== r.groupId) continue;
    g.seats++;
    if (r.standing === "waiting") g.waiting++;
  }
  for (const [id, g] of out) {
    if (g.seats === 0)
      out.delete(id); // the holder is gone: only friends' seats of it stand
    else g.text = groupSeatsText(g.seats, g.waiting);
  }
  return out;
}

/**
 * A named friend's claimed seat (issue 37) is paid by the holder's card: nothing is owed by the friend,
 * and the card is not theirs to see or change (My commitments shows none and offers no "Change card").
 */
export const PAID_BY_HOLDER = "Paid by the person who invited you";

/**
 * What a commitment pays, in words (My commitments): "$45.00"; a holder's group, one payment for the
 * `paysFor` seats of it, "3 people × $45.00 = $135.00" (the money sentences' seatsPriceText); a named
 * friend's seat, PAID_BY_HOLDER; "Free".
 */
export const amountText = (each: number, paysFor: number, paidByHolder: boolean) =>
  paidByHolder ? PAID_BY_HOLDER : each > 0 ? seatsPriceText(each, paysFor) : "Free";
