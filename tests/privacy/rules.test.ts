import { describe, expect, it } from "vitest";
import {
  type Actor,
  canSeeIdentity,
  identitiesPublic,
  type IdentityFacts,
  seesAllIdentities,
} from "@/lib/access/rules";
import { thresholdMet } from "@/lib/events/lifecycle";
import { anonymousAttendee, anonymousCommenter } from "@/lib/privacy/present";

const DEADLINE = new Date("2026-12-01T12:00:00Z");
const BEFORE = new Date("2026-12-01T11:59:59.999Z");
const AT = new Date("2026-12-01T12:00:00Z");
const AFTER = new Date("2026-12-03T00:00:00Z");

const CREATOR = "creator-1";
const ATTENDEE = "attendee-1";

type Setting = "off" | "never" | "onStart" | "immediate";
type Progress = "below" | "met" | "charged";

function campaign(setting: Setting, progress: Progress): IdentityFacts {
  return {
    creatorId: CREATOR,
    attendeesAnonymous: setting !== "off",
    // With anonymity off the stored type is irrelevant: "never" proves it is ignored.
    identityRevelationType: setting === "off" ? "never" : setting,
    status: progress === "charged" ? "charged" : "pending",
    deadline: DEADLINE,
    startsAt: null,
    goal: 5,
    committedCount: progress === "below" ? 4 : 5,
  };
}

const viewers: Record<string, Actor> = {
  visitor: null,
  otherUser: { id: "someone-else", isAdmin: false },
  attendeeHimself: { id: ATTENDEE, isAdmin: false },
  creator: { id: CREATOR, isAdmin: false },
  admin: { id: "admin-1", isAdmin: true },
};

// Expected visibility of ATTENDEE for viewers without special standing (visitor, other user).
// Written out row by row from SPEC §4, not computed.
const publicTable: Array<[Setting, "before" | "after", Progress, boolean]> = [
  ["off", "before", "below", true],
  ["off", "before", "met", true],
  ["off", "before", "charged", true],
  ["off", "after", "below", true],
  ["off", "after", "met", true],
  ["off", "after", "charged", true],
  ["never", "before", "below", false],
  ["never", "before", "met", false],
  ["never", "before", "charged", false],
  ["never", "after", "below", false],
  ["never", "after", "met", false],
  ["never", "after", "charged", false],
  ["onStart", "before", "below", false],
  ["onStart", "before", "met", false],
  ["onStart", "before", "charged", false],
  ["onStart", "after", "below", true],
  ["onStart", "after", "met", true],
  ["onStart", "after", "charged", true],
  ["immediate", "before", "below", false],
  ["immediate", "before", "met", true],
  ["immediate", "before", "charged", true],
  ["immediate", "after", "below", false],
  ["immediate", "after", "met", true],
  ["immediate", "after", "charged", true],
];

describe("canSeeIdentity: every viewer × setting × time × threshold", () => {
  for (const [setting, when, progress, expected] of publicTable) {
    const now = when === "before" ? BEFORE : AFTER;
    const c = campaign(setting, progress);
    it.each(["visitor", "otherUser"])(
      `%s: ${setting}, ${when} deadline, ${progress} → ${expected ? "visible" : "hidden"}`,
      (who) => {
        expect(canSeeIdentity(viewers[who], c, ATTENDEE, now)).toBe(expected);
        expect(identitiesPublic(c, now)).toBe(expected);
      },
    );
    it.each(["attendeeHimself", "creator", "admin"])(
      `%s always sees: ${setting}, ${when} deadline, ${progress}`,
      (who) => {
        expect(canSeeIdentity(viewers[who], c, ATTENDEE, now)).toBe(true);
      },
    );
  }

  it("the attendee sees himself but not another hidden attendee", () => {
    const c = campaign("never", "below");
    expect(canSeeIdentity(viewers.attendeeHimself, c, ATTENDEE, BEFORE)).toBe(true);
    expect(canSeeIdentity(viewers.attendeeHimself, c, "attendee-2", BEFORE)).toBe(false);
  });

  it("onStart reveals exactly at the deadline, not a millisecond before", () => {
    const c = campaign("onStart", "below");
    expect(canSeeIdentity(null, c, ATTENDEE, BEFORE)).toBe(false);
    expect(canSeeIdentity(null, c, ATTENDEE, AT)).toBe(true);
  });

  it("a non-admin with the same id as nobody special gets no standing from isAdmin=false", () => {
    expect(canSeeIdentity({ id: "x", isAdmin: false }, campaign("never", "charged"), ATTENDEE, AFTER)).toBe(
      false,
    );
  });
});

describe("thresholdMet", () => {
  const base = { goal: 3, committedCount: 0, status: "pending" };
  it("counts committed pledges against the goal", () => {
    expect(thresholdMet({ ...base, committedCount: 2 })).toBe(false);
    expect(thresholdMet({ ...base, committedCount: 3 })).toBe(true);
    expect(thresholdMet({ ...base, committedCount: 4 })).toBe(true);
  });
  it.each(["funded", "charging", "charged"])("status %s means the threshold was met", (status) => {
    expect(thresholdMet({ ...base, status })).toBe(true);
  });
  it.each(["pending", "expired", "cancelled"])("status %s below the goal is not met", (status) => {
    expect(thresholdMet({ ...base, committedCount: 1, status })).toBe(false);
  });
  it("a crowdfund counts dollars raised against the goal in dollars", () => {
    const cf = { goal: 100, committedCount: 1, status: "pending", pactType: "crowdfund" };
    expect(thresholdMet({ ...cf, raisedCents: 9_999 })).toBe(false);
    expect(thresholdMet({ ...cf, raisedCents: 10_000 })).toBe(true);
    // 150 backers of $0.50 are not $100... of 100 people: the count alone must not decide.
    expect(thresholdMet({ ...cf, committedCount: 150, raisedCents: 7_500 })).toBe(false);
  });
  it("immediate revelation on an expired event below the threshold stays hidden", () => {
    const c = { ...campaign("immediate", "below"), status: "expired" };
    expect(canSeeIdentity(null, c, ATTENDEE, AFTER)).toBe(false);
  });
});

describe("seesAllIdentities and labels", () => {
  it("only the creator and admins see every identity", () => {
    const c = { creatorId: CREATOR };
    expect(seesAllIdentities(viewers.creator, c)).toBe(true);
    expect(seesAllIdentities(viewers.admin, c)).toBe(true);
    expect(seesAllIdentities(viewers.attendeeHimself, c)).toBe(false);
    expect(seesAllIdentities(viewers.otherUser, c)).toBe(false);
    expect(seesAllIdentities(null, c)).toBe(false);
  });
  it("uses the SPEC's anonymous labels", () => {
    expect(anonymousAttendee(3)).toBe("Anonymous Attendee #3");
    expect(anonymousCommenter(1)).toBe("Anonymous Commenter #1");
  });
});

describe("onStart reveals at the event's start when it has one (issue 16)", () => {
  const START = new Date("2026-12-05T19:00:00Z");
  const c = { ...campaign("onStart", "charged"), startsAt: START };
  it("is hidden after the deadline but before the start, public from the start", () => {
    expect(identitiesPublic(c, AFTER)).toBe(false);
    expect(identitiesPublic(c, new Date(START.getTime() - 1))).toBe(false);
    expect(identitiesPublic(c, START)).toBe(true);
  });
});
