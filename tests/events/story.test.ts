import { describe, expect, it } from "vitest";
import { STANDINGS } from "@/lib/events/standing";
import {
  backerStory,
  moneyOf,
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
    expect(backerStory({ ...gaveUp, ...dates }, confirmed).text).toBe(
      "Gave up your place on Nov 20, 2026, 10:00 AM EST — $35.00 is refunded once the person who took it has paid",
    );
    expect(paymentBadge(gaveUp).label).toBe("Refund pending");
    // the refund's money row succeeded: refunded, whatever the pledge's charge column still says
    const done = { ...gaveUp, refund: "refunded" as const };
    expect(moneyOf(done)).toBe("refunded");
    expect(organizerStory(done).label).toBe("Gave up place, refunded");
    expect(paymentBadge(done).label).toBe("Refunded");
  });

  it("a refund asked for but not through yet is pending, not refunded", () => {
    const asked = { ...charged, standing: "withdrawn" as const, refund: "pending" as const };
    expect(moneyOf(asked)).toBe("owed");
    expect(organizerStory(asked).label).toBe("Withdrawn, refund pending");
    expect(backerStory({ ...asked, ...dates }, confirmed).text).toBe(
      "Withdrawn on Nov 20, 2026, 10:00 AM EST — $35.00 is being refunded",
    );
  });

  it("a charged backer of a cancelled event is told the refund is coming, not 'not charged'", () => {
    const cancelled = { ...charged, eventCancelled: true };
    expect(backerStory({ ...cancelled, ...dates }, { ...confirmed, phase: "cancelled" }).text).toBe(
      "$35.00 is being refunded — the event was cancelled",
    );
    expect(organizerStory(cancelled).label).toBe("Refund pending");
    const uncharged = { ...base, eventCancelled: true };
    expect(backerStory({ ...uncharged, ...dates }, { ...confirmed, phase: "cancelled" }).text).toBe(
      "Not charged — the event was cancelled",
    );
  });

  it("a conditional backer is not told they are in, and a free event's 'charge' is never money", () => {
    const conditional = { ...base, standing: "conditional" as const, minPeople: 8 };
    const story = backerStory({ ...conditional, ...dates }, { ...confirmed, phase: "collecting" });
    expect(story.text).toBe("You count once 8 people are in — 12 are now");
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
