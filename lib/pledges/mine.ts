import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { parseInput } from "@/lib/actions";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import type { Viewer } from "@/lib/access/viewer";
import { campaignIdSchema } from "@/lib/pledges/schema";
import { withdrawRule } from "@/lib/access/pledge-policy";
import {
  inStatuses,
  CALLED_OFF_STATUSES,
  CONFIRMED_STATUSES,
  isCrowdfund,
  isPaidEvent,
  isConfirmed,
  STANDING_PLEDGE,
  waitlistOpen,
  phaseOf,
  PHASE_BADGES,
  pledgeChargeCents,
  progress,
} from "@/lib/events/lifecycle";
import { formatInZone } from "@/lib/campaigns/event-time";
import { cardShort, plural } from "@/lib/format";
import { waitingPositionsOf } from "@/lib/campaigns/waitlist";
import { recoveryPhase } from "@/lib/ledger/payment-window";
import {
  HOLDS_PLACE,
  STANDING_BADGES,
  standsNow,
  type Badge,
  type Standing,
  type Tone,
} from "@/lib/events/standing";
import { receiptReference, refundState } from "@/lib/ledger/queries";
import {
  backerStory,
  type BackerFacts,
  type BackerState,
  type CommitmentFacts,
  type EventFacts,
  type RefundLine,
} from "@/lib/events/story";
import { placeFor, placeLine, whenWhereSelect } from "@/lib/campaigns/place";
import { canSeeExactPlace } from "@/lib/access/rules";
import { depositLinesOf, type DepositLine } from "@/lib/pledges/deposits";
import { recoveryOf, type Recovery } from "@/lib/pledges/attention";
import { whenChargedText } from "@/lib/events/money-sentences";
import { amountText, groupSeatsByGroup, type GroupSeats } from "@/lib/pledges/seats";

/**
 * The backer's own commitments (issue 18): what they committed to, their state in words, their
 * card, and what they may still do. Only ever built for the pledge's own user — card details and
 * charge states appear in nobody else's view (the public list keeps SPEC's payment method text).
 */
export type { BackerState };

export type MyCommitment = {
  pledgeId: string;
  campaignId: string;
  title: string;
  committedAt: string;
  /** the event's phase badge (the campaign core's words); a commitment that no longer stands shows its standing's */
  phase: Badge;
  /** where the commitment stands ("In", "Not counted yet", "Waitlisted"), beside the phase while it stands */
  standing: Standing;
  standingBadge: Badge | null;
  /** the event's start (or, without one, its deadline) in the event's zone with its abbreviation */
  date: { label: "Starts" | "Deadline"; at: string; zone: string; text: string };
  /** the place as this backer may see it (an attendee-only address only while they hold a place) */
  place: string | null;
  state: BackerState;
  /** the state in words: "Waiting — 3 more needed", "Charged $12.00 on Dec 1, 2026 …" */
  stateText: string;
  tone: Tone;
  /** the money owed back or given back (lib/events/story refundLine) */
  refund: RefundLine | null;
  /** one seat's price (a crowdfund: the pledge; 0: free, a friend's seat); amountText: in words (lib/pledges/seats) */
  amountCents: number;
  amountText: string;
  card: { brand: string; last4: string } | null;
  /** withdrawing is possible now: before the tip, or until `until` after a change after the tip */
  withdraw: { kind: "open" } | { kind: "afterChange"; until: string; untilText: string } | null;
  /** a paid commitment before the tip may change its card */
  canChangeCard: boolean;
  /** a failed charge: the page to pay it */
  payUrl: string | null;
  /**
   * A failed payment's recovery window (DESIGN §1 "failed payments"): the banner ("Your $9.00
   * payment failed — update your card by …"), what happens otherwise, and the automatic retry if one
   * is still to come.
   */
  recovery: Recovery | null;
  /** issue 20: waiting for a place — its place in line; `paused`: a promotion's charge failed, a new card is needed */
  waitlist: { position: number; paused: boolean } | null;
  /** issue 20: after the tip, with people waiting: the place may be given to the first in line */
  canGiveUp: boolean;
  /** issue 20: this commitment took a place that opened */
  promotedAt: string | null;
  /** the event has a date: the calendar entry */
  calendarUrl: string | null;
  /** issue 34: when a saved card is charged, in the event's money sentence (lib/events/money-sentences) */
  whenCharged: string;
  /** a payment was taken: its readable reference ("PN-7F3K-2QXM", lib/ledger receiptReference) */
  receipt: string | null;
  /** issue 36: the show-up deposit's state in words (lib/pledges/deposits), null at events without one */
  deposit: DepositLine | null;
  /** issue 37: a commitment of several people: its seats standing, those waiting, in words; null for one */
  seats: GroupSeats | null;
};

const select = {
  id: true,
  campaignId: true,
  createdAt: true,
  amountCents: true,
  cardBrand: true,
  cardLast4: true,
  paymentMethodId: true,
  chargeStatus: true,
  chargedAt: true,
  refundedAt: true,
  charged: true,
  verified: true,
  standing: true,
  withdrawnAt: true,
  paymentFailedAt: true,
  chargeAttempts: true,
  chargeFailureCode: true,
  paymentIntentId: true,
  promotedAt: true,
  minPeople: true,
  groupId: true,
  // a given-up place: whoever took it has paid, so the giver's refund is due
  handedTo: { select: { charged: true } },
  campaign: {
    select: {
      ...whenWhereSelect,
      id: true,
      creatorId: true,
      title: true,
      status: true,
      deadline: true,
      goal: true,
      committedCount: true,
      raisedCents: true,
      ticketPriceCents: true,
      depositCents: true,
      pactType: true,
      changedAfterTipAt: true,
      changeWithdrawUntil: true,
      capacity: true,
      waitlistCount: true,
      earlyGoAhead: true,
    },
  },
} as const;

type Row = NonNullable<Awaited<ReturnType<typeof findRows>>>[number];
const findRows = (where: object, take: number) =>
  db.pledge.findMany({ where, select, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take });

/** The backer's facts for the one story of a commitment (lib/events/story.ts). */
function factsOf(p: Row, position: number | null, refund: CommitmentFacts["refund"], now: Date): BackerFacts {
  const waiting = p.standing === "waiting";
  return {
    card: p.cardLast4 ? cardShort(p.cardBrand, p.cardLast4) : null,
    refundedAt: p.refundedAt,
    placeTakenAndPaid: p.handedTo?.charged === true,
    standing: p.standing,
    chargeStatus: p.chargeStatus,
    charged: p.charged,
    refund,
    eventCancelled: p.campaign.status === "cancelled",
    paid: isPaidEvent(p.campaign),
    cents: p.amountCents,
    recovery: recoveryPhase({ ...p, droppedAt: p.standing === "dropped" ? p.withdrawnAt : null }),
    failureCode: p.chargeFailureCode,
    promoted: p.promotedAt !== null,
    verified: p.verified,
    minPeople: p.minPeople,
    waitlist: waiting ? { position, paused: p.chargeStatus !== "none" } : null,
    leftOn: p.withdrawnAt ? formatInZone(p.withdrawnAt, p.campaign.timeZone) : "",
    chargedOn: formatInZone(p.chargedAt ?? now, p.campaign.timeZone),
  };
}

/** The event as the backer's story needs it, from the campaign core's phase. */
function eventFactsOf(c: Row["campaign"], now: Date): EventFacts {
  const phase = phaseOf(c, now);
  const left = Math.max(0, c.goal - progress(c).value);
  return {
    phase: phase === "ended" || phase === "expired" ? "expired" : phase === "charged" ? "confirmed" : phase,
    committedCount: c.committedCount,
    stillNeeded: isCrowdfund(c)
      ? `$${left.toLocaleString("en-US")} more`
      : plural(left, "more person", "more people"),
  };
}

/** What the backer may still do: withdraw (and until when), change the card, give up the place. */
function actionsOf(p: Row, now: Date) {
  const c = p.campaign;
  const stands = standsNow(p.standing);
  // leaving the waitlist, or a place not counted yet, is open at any time (nothing was charged)
  const uncounted =
    p.standing === "waiting" || (p.standing === "conditional" && !inStatuses(CALLED_OFF_STATUSES, c.status));
  const rule = !stands ? null : uncounted ? ({ kind: "open" } as const) : withdrawRule(c, p, now);
  const paused = p.standing === "waiting" && p.chargeStatus !== "none";
  return {
    withdraw:
      rule?.kind === "open"
        ? ({ kind: "open" } as const)
        : rule?.kind === "afterChange"
          ? ({
              kind: "afterChange",
              until: rule.until.toISOString(),
              untilText: formatInZone(rule.until, c.timeZone),
            } as const)
          : null,
    canChangeCard: isPaidEvent(c) && rule?.kind === "open" && (p.paymentMethodId !== null || paused),
    canGiveUp: p.standing === "in" && isConfirmed(c.status) && c.waitlistCount > 0 && waitlistOpen(c, now),
  };
}

/** The event's date as My commitments shows it: its start, or its deadline when it has none. */
function dateOf(c: Row["campaign"]): MyCommitment["date"] {
  const at = c.startsAt ?? c.deadline;
  return {
    label: c.startsAt ? "Starts" : "Deadline",
    at: at.toISOString(),
    zone: c.timeZone,
    text: formatInZone(at, c.timeZone),
  };
}

/** What is read for all rows at once; `holdsPlace`: the viewer holds a place at the event (by any commitment). */
type Extra = {
  position: number | null;
  refund: CommitmentFacts["refund"];
  holdsPlace: boolean;
  deposit?: DepositLine;
  seats?: GroupSeats;
};

function present(p: Row, viewer: Viewer, now: Date, x: Extra): MyCommitment {
  const { position, refund, holdsPlace, deposit, seats } = x;
  const c = p.campaign;
  const friendSeat = p.groupId !== null && p.groupId !== p.id;
  const facts = { ...factsOf(p, position, refund, now), ...(friendSeat ? { paid: false } : {}) };
  const paysFor = seats?.paysFor ?? 1; // a holder's group: one payment for its seats, friends' too
  const each = facts.paid ? pledgeChargeCents(c, p) : 0;
  if (paysFor > 1 && facts.paid) facts.cents = each * (paysFor - (seats?.waiting ?? 0));
  const story = backerStory(facts, eventFactsOf(c, now));
  const stands = standsNow(p.standing);
  return {
    pledgeId: p.id,
    campaignId: c.id,
    title: c.title,
    committedAt: p.createdAt.toISOString(),
    // a commitment that no longer stands shows its own badge, not the event's ("Withdrawn", not "Active")
    phase: stands ? PHASE_BADGES[phaseOf(c, now)] : STANDING_BADGES[p.standing],
    standing: p.standing,
    // "In" beside "Cancelled" or "Expired" would say the place still holds: the phase says it all
    standingBadge: stands && !inStatuses(CALLED_OFF_STATUSES, c.status) ? STANDING_BADGES[p.standing] : null,
    date: dateOf(c),
    place: placeLine(placeFor(c, canSeeExactPlace(viewer, c, holdsPlace))),
    state: story.state,
    stateText: story.text,
    tone: story.tone,
    refund: story.refund,
    amountCents: each,
    amountText: amountText(each, paysFor, friendSeat && isPaidEvent(c)),
    card: p.cardLast4 && stands && !friendSeat ? { brand: p.cardBrand ?? "card", last4: p.cardLast4 } : null,
    ...actionsOf(p, now),
    ...(friendSeat ? { canChangeCard: false } : {}),
    // a named friend's seat is paid by the holder's card: the holder is asked, not the friend (issue 37)
    payUrl:
      story.state === "failed" && inStatuses(CONFIRMED_STATUSES, c.status) && !friendSeat
        ? `/pledges/${p.id}/pay`
        : null,
    recovery: friendSeat ? null : recoveryOf(p, now, Math.max(1, x.seats?.unpaid ?? 1)),
    waitlist: facts.waitlist ? { position: position ?? 0, paused: facts.waitlist.paused } : null,
    promotedAt: p.promotedAt?.toISOString() ?? null,
    calendarUrl: c.startsAt && stands ? `/campaign/${c.id}/calendar.ics` : null,
    whenCharged: whenChargedText(c, "It", paysFor),
    // a payment was taken (and may since have been refunded): its receipt
    receipt:
      p.paymentIntentId && (p.chargeStatus === "succeeded" || p.chargeStatus === "refunded")
        ? receiptReference(p.id)
        : null,
    deposit: deposit ?? null,
    seats:
      seats && stands && seats.seats > 1
        ? { ...seats, canDrop: actionsOf(p, now).withdraw !== null || seats.waiting > 0 }
        : null,
  };
}

const myCommitmentInput = z.object({ campaignId: campaignIdSchema }).strict();

/** The viewer's live commitment to one event (the event page's "You're in" card), or null. */
export async function getMyCommitment(
  viewer: Viewer,
  input: unknown,
  now = new Date(),
): Promise<MyCommitment | null> {
  const { campaignId } = parseInput(myCommitmentInput, input, { message: ACCESS_TEXTS.campaignNotFound });
  const rows = await findRows({ campaignId, userId: viewer.id, guestSlot: 0, ...STANDING_PLEDGE }, 1);
  return rows.length > 0 ? (await presentAll(rows, viewer, now))[0] : null;
}

/** Every commitment of the viewer, newest first (withdrawn ones too, marked so), at most `take`. */
export async function listMyCommitments(viewer: Viewer, now = new Date(), take = 100) {
  // issue 37: a group shows once, on its holder's own seat (slot 0)
  return presentAll(await findRows({ userId: viewer.id, guestSlot: 0 }, take), viewer, now);
}

/** The rows as the backer reads them: places in line, refunds and deposits read once for all. */
async function presentAll(rows: Row[], viewer: Viewer, now: Date): Promise<MyCommitment[]> {
  const groupIds = rows.flatMap((r) => (r.groupId ? [r.groupId] : []));
  const [positions, money, deposits, groups] = await Promise.all([
    waitingPositionsOf(rows),
    refundState(rows.map((r) => r.id)),
    depositLinesOf(
      rows.map((r) => ({ ...r, userId: viewer.id })),
      now,
    ), // a holder's guests' deposits too
    groupSeatsByGroup(db, groupIds),
  ]);
  // the events where the viewer holds a place now: there (and only there) an attendee-only address shows
  const holds = (r: Row) => (HOLDS_PLACE as readonly Standing[]).includes(r.standing);
  const holding = new Set(rows.filter(holds).map((r) => r.campaignId));
  return rows.map((r) =>
    present(r, viewer, now, {
      position: positions.get(r.id) ?? null,
      refund: money.get(r.id)?.refund ?? "none",
      holdsPlace: holding.has(r.campaignId),
      deposit: deposits.get(r.id),
      // a claimed guest seat (issue 37) is its friend's own: the group's seats are its holder's to show
      seats: r.groupId === r.id ? groups.get(r.groupId) : undefined,
    }),
  );
}
