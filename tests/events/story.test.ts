import { describe, expect, it } from "vitest";
import { STANDINGS } from "@/lib/events/standing";
import {
  backerStory,
  conditionText,
  moneyOf,
  refundLine,
  organizerStatusText,
  organizerStory,
  paymentBadge,
  type CommitmentFacts,
  type EventFacts,
} from "@/lib/events/story";

/**
 * The one story of a commitment (issue 32.4): the cases where the four old decoders disagreed, told
 * once. The money decides: a refund is "refunded" only once it went through (its money row), a charge
 * owed back is "refund pending" on every surface.
 */
const base: CommitmentFacts = {
  standing: "in",
  chargeStatus: "none",
  charged: false,
  refund: "none",
  eventCancelled: false,
  paid: true,
  cents: 3500,
  recovery: null,
  failureCode: null,
  promoted: false,
  verified: true,
  minPeople: null,
  waitlist: null,
};
const dates = { leftOn: "Nov 20, 2026, 10:00 AM EST", chargedOn: "Nov 21, 2026, 9:00 AM EST" };
const confirmed: EventFacts = { phase: "confirmed", committedCount: 12, stillNeeded: "" };
const charged = { ...base, chargeStatus: "succeeded" as const, charged: true };

describe("the one story of a commitment", () => {
  it("a given-up paid place is 'refund pending' everywhere until its refund went through, then 'refunded'", () => {
    const gaveUp = { ...charged, standing: "gave_up" as const };
    expect(organizerStatusText(organizerStory(gaveUp))).toBe(
      "Gave up place, refund pending (refund once the place is paid for)",
    );
    // issue 34: the sentence says what happened; the refund line says where the money is
    const told = backerStory({ ...gaveUp, ...dates, card: "Visa ·4242" }, confirmed);
    expect(told.text).toBe("Gave up your place on Nov 20, 2026, 10:00 AM EST");
    expect(told.refund).toEqual({
      text: "Refund of $35.00 to Visa ·4242: waiting for your place to be taken",
      refundedAt: null,
    });
    // whoever took it has paid: the refund is on its way (the sweeper makes it)
    expect(refundLine({ ...gaveUp, ...dates, card: "Visa ·4242", placeTakenAndPaid: true })?.text).toBe(
      "Refund of $35.00 to Visa ·4242: on its way",
    );
    expect(paymentBadge(gaveUp).label).toBe("Refund pending");
    // the refund's money row succeeded: refunded, whatever the pledge's charge column still says
    const done = { ...gaveUp, refund: "refunded" as const };
    expect(moneyOf(done)).toBe("refunded");
    const at = new Date("2026-11-25T18:30:00Z");
    expect(backerStory({ ...done, ...dates, card: "Visa ·4242", refundedAt: at }, confirmed).refund).toEqual({
      text: "Refunded $35.00 to Visa ·4242",
      refundedAt: at.toISOString(),
    });
    expect(organizerStory(done).label).toBe("Gave up place, refunded");
    expect(paymentBadge(done).label).toBe("Refunded");
  });

  it("a refund asked for but not through yet is pending, not refunded", () => {
    const asked = { ...charged, standing: "withdrawn" as const, refund: "pending" as const };
    expect(moneyOf(asked)).toBe("owed");
    expect(organizerStory(asked).label).toBe("Withdrawn, refund pending");
    const story = backerStory({ ...asked, ...dates }, confirmed);
    expect(story.text).toBe("Withdrawn on Nov 20, 2026, 10:00 AM EST");
    expect(story.refund?.text).toBe("Refund of $35.00 to your card: on its way");
    // never charged: the sentence says so, and there is no refund line
    const never = backerStory({ ...base, standing: "withdrawn", ...dates }, confirmed);
    expect([never.text, never.refund]).toEqual([
      "Withdrawn on Nov 20, 2026, 10:00 AM EST — never charged",
      null,
    ]);
  });

  it("a charged backer of a cancelled event is told the refund is coming, not 'not charged'", () => {
    const cancelled = { ...charged, eventCancelled: true };
    const told = backerStory({ ...cancelled, ...dates }, { ...confirmed, phase: "cancelled" });
    expect([told.text, told.refund?.text]).toEqual([
      "The event was cancelled",
      "Refund of $35.00 to your card: on its way",
    ]);
    expect(organizerStory(cancelled).label).toBe("Refund pending");
    const uncharged = { ...base, eventCancelled: true };
    expect(backerStory({ ...uncharged, ...dates }, { ...confirmed, phase: "cancelled" }).text).toBe(
      "Not charged — the event was cancelled",
    );
  });

  it("a conditional backer is not told they are in, and a free event's 'charge' is never money", () => {
    const conditional = { ...base, standing: "conditional" as const, minPeople: 8 };
    const story = backerStory({ ...conditional, ...dates }, { ...confirmed, phase: "collecting" });
    // issue 34: "Counts when N are in" with the count now, never "You're in"
    expect(story.text).toBe("Counts when 8 are in · 12 are in now");
    expect(story.tone).toBe("amber");
    expect(conditionText(3, 1)).toBe("Counts when 3 are in · 1 is in now");
    expect(organizerStory(conditional)).toEqual({
      label: "Counts when 8 are in",
      tone: "amber",
      note: "not counted yet",
    });
    const freeGiver = { ...charged, standing: "gave_up" as const, paid: false, cents: 0 };
    expect(moneyOf(freeGiver)).toBe("none");
    expect(organizerStory(freeGiver).label).toBe("Gave up place");
  });

  it("every standing has a story for the organizer and the backer", () => {
    for (const standing of STANDINGS) {
      const f = {
        ...base,
        standing,
        minPeople: 5,
        waitlist: standing === "waiting" ? { position: 2, paused: false } : null,
      };
      expect(organizerStory(f).label, standing).not.toBe("");
      expect(backerStory({ ...f, ...dates }, confirmed).text, standing).not.toMatch(/undefined|null|NaN/);
    }
  });
});
