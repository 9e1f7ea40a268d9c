import { describe, expect, it } from "vitest";
import {
  goAheadFrom,
  goalMetSentence,
  happeningText,
  moneySentence,
  moneyStage,
  priceWithDeposit,
  refundRules,
  seatsPriceText,
  wentAheadSentence,
  whenChargedText,
  type MoneyFacts,
} from "@/lib/events/money-sentences";

// issue 34 item 1: one money sentence per event state, from the campaign core's phase.
const now = new Date("2026-06-01T12:00:00Z");
const later = new Date("2026-06-14T12:00:00Z");
const earlier = new Date("2026-05-01T12:00:00Z");
const paid: MoneyFacts = {
  status: "pending",
  deadline: later,
  goal: 5,
  ticketPriceCents: 3500,
  depositCents: 0,
  pactType: "paction",
};
const free: MoneyFacts = { ...paid, ticketPriceCents: 0 };
const crowdfund: MoneyFacts = { ...paid, goal: 1000, ticketPriceCents: 0, pactType: "crowdfund" };
const withGoAhead = (c: MoneyFacts): MoneyFacts => ({ ...c, earlyGoAhead: true });
const wentAhead = (c: MoneyFacts, status = "funded"): MoneyFacts => ({
  ...c,
  earlyGoAhead: true,
  status,
  goAheadAt: earlier,
  goAheadCount: 4,
});
const say = (c: MoneyFacts) =>
  moneySentence(c, now, { deadline: "Jun 14, 2026, 12:00 PM UTC", chargedOn: "Jun 2, 2026" });
const WRONG = /as if the goal were met|reached its goal|threshold/;

describe("the money stage comes from the campaign core's phase", () => {
  it.each([
    [paid, "collecting"],
    [withGoAhead(paid), "collectingGoAhead"],
    [withGoAhead(crowdfund), "collecting"], // a crowdfund cannot go ahead
    [{ ...paid, deadline: earlier }, "ended"],
    [{ ...paid, status: "funded" }, "tipped"],
    [{ ...paid, status: "charging" }, "tipped"],
    [wentAhead(paid), "goneAhead"],
    [wentAhead(paid, "charged"), "charged"],
    [{ ...paid, status: "charged" }, "charged"],
    [{ ...paid, status: "expired" }, "expired"],
    [{ ...paid, status: "cancelled" }, "cancelled"],
  ] as const)("%o → %s", (c, stage) => {
    expect(moneyStage(c, now)).toBe(stage);
  });
});

describe("one sentence per state", () => {
  it("collecting, paid: charged only if the goal is met by the deadline, at the moment it is", () => {
    expect(say(paid)).toBe(
      "You're charged $35.00 only if the goal of 5 people is met by Jun 14, 2026, 12:00 PM UTC, and at once, the moment it is. Otherwise nobody pays.",
    );
  });
  it("collecting, paid, go-ahead on: one sentence says both, without contradiction", () => {
    const s = say(withGoAhead(paid));
    expect(s).toBe(
      "You're charged $35.00 only if the goal of 5 people is met by Jun 14, 2026, 12:00 PM UTC, and at once, the moment it is. The organizer may go ahead from 4 people (80% of the goal). If they do, you're charged $35.00 at once, as when the goal is met. Otherwise nobody pays.",
    );
    expect(s).not.toMatch(WRONG);
  });
  it("collecting, free (with and without the go-ahead): nothing is charged", () => {
    expect(say(free)).toBe(
      "Free: nobody pays. It happens only if the goal of 5 people is met by Jun 14, 2026, 12:00 PM UTC.",
    );
    expect(say(withGoAhead(free))).toBe(
      "Free: nobody pays. It happens only if the goal of 5 people is met by Jun 14, 2026, 12:00 PM UTC. The organizer may go ahead from 4 people (80% of the goal). If they do, it is happening.",
    );
  });
  it("collecting, crowdfund: the pledge, the dollar goal, never a go-ahead", () => {
    expect(say(withGoAhead(crowdfund))).toBe(
      "Your pledge is charged only if the $1,000.00 goal is met by Jun 14, 2026, 12:00 PM UTC, and at once, the moment it is. Otherwise nobody pays.",
    );
  });
  it("without a deadline text, 'the deadline'", () => {
    expect(moneySentence(paid, now)).toContain("is met by the deadline, and at once");
  });
  it("ended: the result is being recorded", () => {
    expect(say({ ...paid, deadline: earlier })).toBe(
      "The deadline has passed; the result is being recorded.",
    );
  });
  it("tipped by the goal: paid, crowdfund, free; a late commitment is charged at once", () => {
    expect(say({ ...paid, status: "funded" })).toBe("The goal was met: everyone in is being charged $35.00.");
    expect(say({ ...paid, status: "funded", acceptAfterThreshold: true })).toBe(
      "The goal was met: everyone in is being charged $35.00. Commit now and you're charged $35.00 at once.",
    );
    expect(say({ ...crowdfund, status: "charging" })).toBe(
      "The goal was met: backers are being charged their pledges.",
    );
    expect(say({ ...free, status: "funded" })).toBe("The goal was met: it is happening. Free: nobody pays.");
  });
  it("going ahead by the organizer's choice: never 'threshold' or 'reached its goal'", () => {
    expect(say(wentAhead(paid))).toBe(
      "Going ahead by the organizer's choice, with 4 of the 5 people it aimed for. Everyone in is being charged $35.00, as when a goal is met.",
    );
    expect(say(wentAhead(paid, "charged"))).toBe(
      "Going ahead by the organizer's choice, with 4 of the 5 people it aimed for. Charged $35.00 per attendee on Jun 2, 2026.",
    );
  });
  it("a free go-ahead is not 'charged as if the goal were met'", () => {
    // a free go-ahead is charged (settled) at once (lib/events/status goAhead)
    const s = say(wentAhead(free, "charged"));
    expect(s).toBe(
      "Going ahead by the organizer's choice, with 4 of the 5 people it aimed for. It is happening. Free: nobody pays.",
    );
    expect(s).not.toMatch(/charged as|charged \$/);
    expect(wentAheadSentence(wentAhead(free, "charged"))).toBe(
      "The event reached 4 of the 5 people it aimed for, and the organizer went ahead, as they said they might from 80% of the goal. It is happening. Free: nobody pays.",
    );
  });
  it("charged: paid, crowdfund, free", () => {
    expect(say({ ...paid, status: "charged" })).toBe("Charged $35.00 per attendee on Jun 2, 2026.");
    expect(say({ ...crowdfund, status: "charged" })).toBe(
      "Backers were charged their pledges on Jun 2, 2026.",
    );
    expect(say({ ...free, status: "charged" })).toBe("It is happening. Free: nobody pays.");
  });
  it("expired and cancelled: paid and free", () => {
    expect(say({ ...paid, status: "expired" })).toBe(
      "The goal was not met by the deadline. Nobody was charged.",
    );
    expect(say({ ...free, status: "expired" })).toBe(
      "The goal was not met by the deadline, so it is not happening. Nothing was charged.",
    );
    expect(say({ ...paid, status: "cancelled" })).toBe(
      "This event was cancelled. Nobody pays; anyone already charged is refunded.",
    );
    expect(say({ ...free, status: "cancelled" })).toBe("This event was cancelled. Nothing was charged.");
  });
});

describe("the other money texts", () => {
  it("when a saved card is charged: the goal, or the organizer's go-ahead when offered", () => {
    expect(whenChargedText(paid)).toBe(
      "Your card is charged $35.00 the moment the goal is met, if that happens by the deadline. Otherwise nobody pays.",
    );
    expect(whenChargedText(withGoAhead(paid), "It")).toBe(
      "It is charged $35.00 the moment the goal is met or the organizer goes ahead, if that happens by the deadline. Otherwise nobody pays.",
    );
    expect(whenChargedText(crowdfund)).toContain("is charged your pledge the moment the goal is met, if");
  });
  it("why it is happening (the emails): the goal, or the organizer's choice", () => {
    expect(happeningText({ ...paid, title: "Supper" })).toBe(
      '"Supper" reached its goal of 5 attendees, so it is happening.',
    );
    expect(happeningText({ ...crowdfund, title: "Fund" })).toBe(
      '"Fund" reached its $1,000.00 goal, so it is happening.',
    );
    const ahead = happeningText({ ...wentAhead(paid), title: "Supper" });
    expect(ahead).toBe(
      '"Supper" reached 4 of the 5 people it aimed for, and the organizer went ahead, as they said they might from 80% of the goal.',
    );
    expect(ahead).not.toMatch(/reached its goal/);
  });
  it("the confirmed banner when the goal was met", () => {
    expect(goalMetSentence(paid)).toBe(
      "The goal was met, so this event is happening. Attendees are charged $35.00 each.",
    );
    expect(goalMetSentence(free)).toBe("The goal was met, so this event is happening. Free: nobody pays.");
    expect(
      goalMetSentence({ ...crowdfund, status: "charged", raisedCents: 123_400n } as MoneyFacts),
    ).toContain("with $1,234.00 pledged");
  });
  it("the go-ahead count: 80% of the goal, rounded up", () => {
    expect([goAheadFrom({ goal: 5 }), goAheadFrom({ goal: 10 }), goAheadFrom({ goal: 1 })]).toEqual([
      4, 8, 1,
    ]);
  });
});

describe("the refund rules (DESIGN §1 withdrawing, waitlist; lib/pledges/give-up.ts; lib/access/pledge-policy)", () => {
  it("paid: withdraw before the tip; after it a change of date or place, a given-up place once taken and paid, a cancellation", () => {
    expect(refundRules(paid)).toEqual([
      "You can withdraw until the goal is met, and nothing is charged. After that your commitment is binding.",
      "If the date or place changes after that, you may withdraw within 7 days (or until the event starts, if sooner) and are refunded in full.",
      "If you give up your place to the first person on the waitlist, you're refunded in full once they have paid.",
      "If the event is cancelled, everyone charged is refunded in full.",
    ]);
  });
  it("with the go-ahead on, the tip may come from the organizer", () => {
    expect(refundRules(withGoAhead(paid))[0]).toBe(
      "You can withdraw until the goal is met or the organizer goes ahead, and nothing is charged. After that your commitment is binding.",
    );
  });
  it("free: only the withdrawal rule (there is nothing to refund)", () => {
    expect(refundRules(free)).toEqual([
      "You can withdraw until the goal is met, and nothing is charged. After that your commitment is binding.",
    ]);
  });
  it("the change window is the one withdrawing uses", async () => {
    const { CHANGE_WITHDRAW_DAYS, changeWithdrawUntil } = await import("@/lib/access/pledge-policy");
    expect(CHANGE_WITHDRAW_DAYS).toBe(7);
    expect(changeWithdrawUntil(now, null).getTime() - now.getTime()).toBe(7 * 86_400_000);
  });
});

describe("a group's money sentences say the group's amount (issue 37)", () => {
  it("before the decision, at the go-ahead and when charged: seats × price, once", () => {
    const when = { deadline: "Jun 14, 2026, 12:00 PM UTC", seats: 3 };
    expect(moneySentence(paid, now, when)).toBe(
      "You're charged $105.00 for 3 people ($35.00 each) only if the goal of 5 people is met by Jun 14, 2026, 12:00 PM UTC, and at once, the moment it is. Otherwise nobody pays.",
    );
    expect(moneySentence(withGoAhead(paid), now, when)).toContain(
      "If they do, you're charged $105.00 for 3 people ($35.00 each) at once",
    );
    expect(whenChargedText(paid, "Your card", 3)).toBe(
      "Your card is charged $105.00 for 3 people ($35.00 each) the moment the goal is met, if that happens by the deadline. Otherwise nobody pays.",
    );
    const late = { ...paid, status: "charged", acceptAfterThreshold: true };
    expect(moneySentence(late, now, when)).toContain("Commit now and you're charged $105.00 for 3 people");
    // one person, and events whose amount is not per person, as before
    expect(moneySentence(paid, now, { ...when, seats: 1 })).toContain("You're charged $35.00 only if");
    expect(moneySentence(free, now, when)).toMatch(/^Free: nobody pays/);
    expect(moneySentence(crowdfund, now, when)).toMatch(/^Your pledge is charged/);
  });
});

describe("a group at an event with a show-up deposit says the group's amounts (issue 37 × 36)", () => {
  const deposit: MoneyFacts = { ...paid, ticketPriceCents: 2000, depositCents: 1000 };
  it("the deposit line, the card sheet's figure and the money sentence: seats × (price + deposit)", () => {
    expect(priceWithDeposit(deposit)).toBe(
      "$20.00 ticket + $10.00 show-up deposit, refunded when you check in",
    );
    expect(priceWithDeposit(deposit, 3)).toBe(
      "3 × $20.00 tickets + 3 × $10.00 show-up deposits = $90.00, each deposit refunded when its person checks in",
    );
    expect(priceWithDeposit({ ...deposit, ticketPriceCents: 0 }, 2)).toBe(
      "2 free tickets + 2 × $10.00 show-up deposits = $20.00, each deposit refunded when its person checks in",
    );
    expect(seatsPriceText(deposit.ticketPriceCents + deposit.depositCents, 3)).toBe(
      "3 people × $30.00 = $90.00",
    );
    expect(moneySentence(deposit, now, { deadline: "Jun 14, 2026, 12:00 PM UTC", seats: 3 })).toContain(
      "You're charged $90.00 for 3 people ($30.00 each) only if",
    );
    expect(priceWithDeposit(paid, 3)).toBeNull();
  });
});
