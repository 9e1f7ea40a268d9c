import { formatCents, plural } from "@/lib/format";
import { isCrowdfund, isFreeEvent, keepsAccepting, phaseOf, type PactKind } from "@/lib/events/lifecycle";

/**
 * Money said once (issue 34, DESIGN §1 "money sentence"): one sentence per event state — when a card
 * is charged (the moment the goal is reached, not at the deadline), the early go-ahead if the event
 * opted in, what happened once it is decided — and the refund rules. The price box, the commit
 * dialog, the emails, the manage page and My commitments all say these, never their own. The state
 * comes from the campaign core (lib/events/lifecycle phaseOf); pure and dependency-free like it.
 */

/**
 * What one place of a paction is charged at the tip: the ticket price plus the show-up deposit
 * (issue 36; a crowdfund takes none). The money row of each stays its own (lib/ledger).
 */
export const eachCents = (c: PactKind) => c.ticketPriceCents + (isCrowdfund(c) ? 0 : c.depositCents);

/**
 * What a commitment of `seats` people is charged, in words (issue 37: a paid group pays one charge of
 * seats × price): "$20.00" for one, "3 people × $20.00 = $60.00" for a group. The commit dialog says
 * this wherever it names the payment.
 */
export const seatsPriceText = (each: number, seats: number) =>
  seats <= 1
    ? formatCents(each)
    : `${plural(seats, "person", "people")} × ${formatCents(each)} = ${formatCents(each * seats)}`;

/** An organizer who opted in may go ahead from this many members: 80% of the goal, rounded up. */
export const goAheadFrom = (c: { goal: number }) => Math.ceil(c.goal * 0.8);

/** After a date or place change on a confirmed event, backers may withdraw with a refund this long. */
export const CHANGE_WITHDRAW_DAYS = 7;

/** What the event takes: nothing, a ticket price, or each backer's own pledge. */
export type PactMoney = "free" | "paid" | "crowdfund";

export const pactMoney = (c: PactKind): PactMoney =>
  isCrowdfund(c) ? "crowdfund" : isFreeEvent(c) ? "free" : "paid";

/** What the event takes, its goal and its go-ahead (offered, or taken: when, with how many; issue 21). */
export type GoAheadFacts = PactKind & {
  goal: number;
  earlyGoAhead?: boolean;
  goAheadAt?: Date | string | null;
  goAheadCount?: number | null;
};

/** The event as the sentences need it (a CampaignView, an email's campaign, the commit panel). */
export type MoneyFacts = GoAheadFacts & {
  status: string;
  deadline: Date;
  acceptAfterThreshold?: boolean;
  capacity?: number | null;
};

/**
 * The money states: collecting (with or without an early go-ahead on offer), the deadline passed
 * and the result not yet recorded, tipped by the goal, going ahead by the organizer's choice,
 * charged (settled, either way), expired, cancelled.
 */
export type MoneyStage =
  "collecting" | "collectingGoAhead" | "ended" | "tipped" | "goneAhead" | "charged" | "expired" | "cancelled";

/** Whether the early go-ahead is on offer: opted in, and a paction (a crowdfund cannot go ahead). */
export const offersGoAhead = (c: GoAheadFacts) => Boolean(c.earlyGoAhead) && !isCrowdfund(c);

/** Whether the event is happening because its organizer went ahead below the goal (not "threshold met"). */
export const wentAhead = (c: { goAheadAt?: Date | string | null }) => Boolean(c.goAheadAt);

export function moneyStage(c: MoneyFacts, now: Date): MoneyStage {
  const phase = phaseOf(c, now);
  switch (phase) {
    case "collecting":
      return offersGoAhead(c) ? "collectingGoAhead" : "collecting";
    case "confirmed":
      return wentAhead(c) ? "goneAhead" : "tipped";
    default:
      return phase;
  }
}

/** The title a going-ahead event carries (the event page's and the manage page's banner). */
export const GOING_AHEAD_TITLE = "Going ahead: the organizer chose it";

/** "The organizer may go ahead from 4 people (80% of the goal)." */
export const mayGoAheadText = (c: { goal: number }) =>
  `The organizer may go ahead from ${goAheadFrom(c)} people (80% of the goal).`;

/** "The event reached 4 of the 5 people it aimed for, and the organizer went ahead, …" (emails name it) */
export const wentAheadText = (c: GoAheadFacts, name = "The event") =>
  `${name} reached ${c.goAheadCount ?? "?"} of the ${c.goal} people it aimed for, and the organizer went ahead, as they said they might from 80% of the goal.`;

/** What a go-ahead means for the money: "If they do, you're charged $35.00 at once, as when the goal is met." */
export const goAheadOffer = (c: GoAheadFacts, seats = 1) =>
  `${mayGoAheadText(c)} If they do, ${isFreeEvent(c) ? "it is happening" : `you're charged ${whatText(c, seats)} at once, as when the goal is met`}.`;

/** The event page's and the manage page's going-ahead banner: why it happens, and what it costs. */
export const wentAheadSentence = (c: GoAheadFacts) =>
  `${wentAheadText(c)} ${isFreeEvent(c) ? "It is happening. Free: nobody pays." : `Everyone in is charged ${formatCents(eachCents(c))}, as when a goal is met.`}`;

/** The confirmed banner's text when the goal was met (SPEC §2's "Event Confirmed!" banner). */
export function goalMetSentence(c: GoAheadFacts & { raisedCents?: number | bigint }): string {
  const money = pactMoney(c);
  if (money === "crowdfund")
    return `The goal was met with ${formatCents(Number(c.raisedCents ?? 0))} pledged, so this event is happening. Backers are charged their pledges.`;
  return money === "paid"
    ? `The goal was met, so this event is happening. Attendees are charged ${formatCents(eachCents(c))} each.`
    : "The goal was met, so this event is happening. Free: nobody pays.";
}

/**
 * While collecting, when a saved card is charged, short (the payment step, the commit result, a card
 * change): "Your card is charged $35.00 the moment the goal is met or the organizer goes ahead, if
 * that happens by the deadline. Otherwise nobody pays."
 */
export const whenChargedText = (c: GoAheadFacts, card = "Your card", seats = 1) =>
  `${card} is charged ${whatText(c, seats)} the moment the goal is met${offersGoAhead(c) ? " or the organizer goes ahead" : ""}, if that happens by the deadline. Otherwise nobody pays.`;

/**
 * Why an event is happening, for the emails about it (`title` quoted): the goal was met, or the
 * organizer went ahead below it — never "reached its goal" then.
 */
export function happeningText(c: GoAheadFacts & { title: string }): string {
  const name = `"${c.title}"`;
  if (wentAhead(c)) return wentAheadText(c, name);
  return isCrowdfund(c)
    ? `${name} reached its ${formatCents(c.goal * 100)} goal, so it is happening.`
    : `${name} reached its goal of ${plural(c.goal, "attendee", "attendees")}, so it is happening.`;
}

/** Texts the caller formats in the event's zone (this module knows no time zones). */
export type MoneyWhen = {
  deadline?: string;
  chargedOn?: string;
  /** issue 37: the commitment being made holds this many people (a group pays seats × price) */
  seats?: number;
};

const goalText = (c: GoAheadFacts) =>
  isCrowdfund(c)
    ? `the ${formatCents(c.goal * 100)} goal`
    : `the goal of ${plural(c.goal, "person", "people")}`;

/** What one backer is charged: the ticket price (and the show-up deposit), or their pledge. */
const whatText = (c: GoAheadFacts, seats = 1) =>
  isCrowdfund(c)
    ? "your pledge"
    : seats > 1
      ? `${formatCents(eachCents(c) * seats)} for ${plural(seats, "person", "people")} (${formatCents(eachCents(c))} each)`
      : formatCents(eachCents(c));

/**
 * Before the decision: when the card is charged. "You're charged $35.00 only if the goal of 5 people
 * is met by <deadline>, and at once, the moment it is. Otherwise nobody pays." — with the go-ahead
 * said in the same sentence when the event offers it.
 */
export function collectingSentence(c: GoAheadFacts, when: MoneyWhen = {}): string {
  const by = ` by ${when.deadline ?? "the deadline"}`;
  const ahead = offersGoAhead(c) ? ` ${goAheadOffer(c, when.seats)}` : "";
  if (isFreeEvent(c)) return `Free: nobody pays. It happens only if ${goalText(c)} is met${by}.${ahead}`;
  const who = isCrowdfund(c) ? "Your pledge is charged" : `You're charged ${whatText(c, when.seats)}`;
  return `${who} only if ${goalText(c)} is met${by}, and at once, the moment it is.${ahead} Otherwise nobody pays.`;
}

/** Commit now on a confirmed event that keeps accepting: charged at once. */
const lateText = (c: MoneyFacts, now: Date, seats = 1) =>
  keepsAccepting(c) && c.deadline.getTime() > now.getTime() && !isFreeEvent(c)
    ? isCrowdfund(c)
      ? " Pledges made now are charged at once."
      : ` Commit now and you're charged ${whatText(c, seats)} at once.`
    : "";

/** The one money sentence for the event's state (the price box says it; the other surfaces too). */
export function moneySentence(c: MoneyFacts, now: Date, when: MoneyWhen = {}): string {
  const money = pactMoney(c);
  const price = formatCents(eachCents(c));
  const on = when.chargedOn ? ` on ${when.chargedOn}` : "";
  switch (moneyStage(c, now)) {
    case "collecting":
    case "collectingGoAhead":
      return collectingSentence(c, when);
    case "ended":
      return "The deadline has passed; the result is being recorded.";
    case "tipped":
      if (money === "free") return "The goal was met: it is happening. Free: nobody pays.";
      return money === "crowdfund"
        ? `The goal was met: backers are being charged their pledges.${lateText(c, now, when.seats)}`
        : `The goal was met: everyone in is being charged ${price}.${lateText(c, now, when.seats)}`;
    case "goneAhead":
      return money === "free"
        ? `${goneAheadLead(c)} It is happening. Free: nobody pays.`
        : `${goneAheadLead(c)} Everyone in is being charged ${money === "crowdfund" ? "their pledges" : price}, as when a goal is met.${lateText(c, now, when.seats)}`;
    case "charged": {
      const lead = wentAhead(c) ? `${goneAheadLead(c)} ` : "";
      if (money === "free") return `${lead}It is happening. Free: nobody pays.`;
      return money === "crowdfund"
        ? `${lead}Backers were charged their pledges${on}.${lateText(c, now, when.seats)}`
        : `${lead}Charged ${price} per attendee${on}.${lateText(c, now, when.seats)}`;
    }
    case "expired":
      return money === "free"
        ? "The goal was not met by the deadline, so it is not happening. Nothing was charged."
        : "The goal was not met by the deadline. Nobody was charged.";
    case "cancelled":
      return money === "free"
        ? "This event was cancelled. Nothing was charged."
        : "This event was cancelled. Nobody pays; anyone already charged is refunded.";
  }
}

/** "Going ahead by the organizer's choice, with 4 of the 5 people it aimed for." */
const goneAheadLead = (c: GoAheadFacts) =>
  `Going ahead by the organizer's choice, with ${c.goAheadCount ?? "fewer than the"} of the ${c.goal} people it aimed for.`;

/**
 * A cancelled event's money, to one person (the cancellation email): their payment refunded — a group's
 * holder's for its seats, "Your payment of $135.00 for 3 people …" (issue 37) —, a named friend's seat
 * paid by the person who invited them, a charge that may still complete, or nobody charged.
 */
export function cancelledMoneyText(m: {
  refundedCents: number;
  chargeInFlight: boolean;
  seats?: number;
  paidByHolder?: boolean;
}): string {
  const seats = m.seats ?? 1;
  if (m.refundedCents > 0)
    return `Your payment of ${formatCents(m.refundedCents)}${seats > 1 ? ` for ${plural(seats, "person", "people")}` : ""} is being refunded to your card.`;
  if (m.paidByHolder)
    return "The person who invited you paid for your seat; it is refunded to them. You pay nothing.";
  return m.chargeInFlight
    ? "If your card was charged for it, the payment is refunded automatically."
    : "Nobody was charged.";
}

/**
 * "Event Confirmed!"'s money sentence (issue 37): what this person was charged — a holder for their
 * group's seats ("You were charged $90.00 for 3 people."), a named friend nothing (the holder paid).
 */
export function confirmedMoneyText(m: {
  chargedCents: number;
  seats?: number;
  paidByHolder?: boolean;
}): string {
  const seats = m.seats ?? 1;
  if (m.chargedCents > 0)
    return `You were charged ${formatCents(m.chargedCents)}${seats > 1 ? ` for ${plural(seats, "person", "people")}` : ""}.`;
  if (m.paidByHolder) return "The person who invited you paid for your seat: nothing was charged to you.";
  return "This event is free: nothing was charged.";
}

// ---- the refund rules (DESIGN §1 "withdrawing", "capacity and waitlist"; issue 17 changes) ----------

export const REFUND_RULES = {
  /** before the tip: withdrawing is free */
  beforeTip: (c: GoAheadFacts) =>
    `You can withdraw until the goal is met${offersGoAhead(c) ? " or the organizer goes ahead" : ""}, and nothing is charged. After that your commitment is binding.`,
  /** after the tip, a change of date or place (lib/access/pledge-policy withdrawRule "afterChange") */
  afterChange: `If the date or place changes after that, you may withdraw within ${CHANGE_WITHDRAW_DAYS} days (or until the event starts, if sooner) and are refunded in full.`,
  /** after the tip, "give up my place" (lib/pledges/give-up.ts) */
  gaveUp:
    "If you give up your place to the first person on the waitlist, you're refunded in full once they have paid.",
  cancelled: "If the event is cancelled, everyone charged is refunded in full.",
} as const;

/** The refund rules a backer agrees to, in order: withdraw before the tip; after it, a change, a given-up place, a cancellation. */
export function refundRules(c: GoAheadFacts): string[] {
  const before = REFUND_RULES.beforeTip(c);
  if (isFreeEvent(c)) return [before];
  return [before, REFUND_RULES.afterChange, REFUND_RULES.gaveUp, REFUND_RULES.cancelled];
}

// ---- the show-up deposit (issue 36, lib/events/deposit.ts), said the same on every surface ------------

/** Whether the event states a deposit: a paction with one (a crowdfund takes none). */
const statesDeposit = (c: PactKind) => c.depositCents > 0 && !isCrowdfund(c);

/** "$10.00 show-up deposit, refunded when you check in", or null without one. */
export const depositText = (c: PactKind): string | null =>
  statesDeposit(c) ? `${formatCents(c.depositCents)} show-up deposit, refunded when you check in` : null;

/**
 * The price with its deposit, before anyone commits (the event page, the commit dialog, the emails):
 * "$20.00 ticket + $10.00 show-up deposit, refunded when you check in", "Free ticket + $10.00 …";
 * null without a deposit (the price is said as before). For a group (issue 37, the commit dialog's
 * people picker) the group's amounts: "3 × $20.00 tickets + 3 × $10.00 show-up deposits = $90.00,
 * each deposit refunded when its person checks in".
 */
export function priceWithDeposit(c: PactKind, seats = 1): string | null {
  const deposit = depositText(c);
  if (!deposit) return null;
  if (seats > 1) {
    const tickets =
      c.ticketPriceCents > 0
        ? `${seats} × ${formatCents(c.ticketPriceCents)} tickets`
        : `${seats} free tickets`;
    return `${tickets} + ${seats} × ${formatCents(c.depositCents)} show-up deposits = ${formatCents(eachCents(c) * seats)}, each deposit refunded when its person checks in`;
  }
  const ticket = c.ticketPriceCents > 0 ? `${formatCents(c.ticketPriceCents)} ticket` : "Free ticket";
  return `${ticket} + ${deposit}`;
}

/** "24 hours", "1 hour", "7 days" (a whole number of days from 48 hours). */
export const graceText = (hours: number) =>
  hours >= 48 && hours % 24 === 0 ? plural(hours / 24, "day", "days") : plural(hours, "hour", "hours");

/**
 * The deposit's rules as the backer agrees to them: "The $10.00 deposit is refunded when your ticket is
 * checked in at the door. If you do not check in, it is kept 24 hours after the event ends and goes to
 * the organizer. Withdrawing, giving up your place or a cancelled event refunds it with the ticket."
 */
export function depositRules(c: PactKind & { depositGraceHours: number }): string | null {
  if (!statesDeposit(c)) return null;
  return `The ${formatCents(c.depositCents)} show-up deposit is refunded when your ticket is checked in at the door. If you do not check in, it is kept ${graceText(c.depositGraceHours)} after the event ends and goes to the organizer. Withdrawing, giving up your place or a cancelled event refunds it with the ticket.`;
}

/** The deposit's line and its rules, as paragraphs (the emails); none without a deposit. */
export function depositSentences(c: PactKind & { depositGraceHours: number }, seats = 1): string[] {
  const line = priceWithDeposit(c, seats);
  const rules = depositRules(c);
  return line && rules ? [`${line}.`, rules] : [];
}
