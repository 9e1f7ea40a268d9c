import { describe, expect, it } from "vitest";
import { actionState, EVENT_ACTIONS, offers, type EventAction } from "@/lib/events/actions";
import { CAMPAIGN_STATUSES, callToAction, isJoinable, isJoinableCta } from "@/lib/events/lifecycle";

const now = new Date("2026-11-21T12:00:00Z");
const days = (n: number) => new Date(now.getTime() + n * 86400_000);
const ACTIONS: EventAction[] = ["share", "calendar", "flyer", "edit", "postUpdate"];
const event = (status: string, deadline = days(3), approvalStatus = "approved") => ({
  status,
  deadline,
  approvalStatus,
});

describe("the event actions table (lib/events/actions.ts)", () => {
  it("a collecting or confirmed event offers every action", () => {
    for (const status of ["pending", "funded", "charging", "charged"])
      for (const a of ACTIONS) expect(offers(event(status), a, now), `${status} ${a}`).toBe(true);
  });

  it("a cancelled or expired event offers no Share, calendar, Flyer, Edit or Post update", () => {
    for (const status of ["cancelled", "expired"])
      for (const a of ACTIONS) expect(offers(event(status, days(-1)), a, now), `${status} ${a}`).toBe(false);
    // cancelled before its deadline: the same
    for (const a of ACTIONS) expect(offers(event("cancelled", days(5)), a, now)).toBe(false);
  });

  it("a rejected event offers Edit (to resubmit) and nothing else, whatever its status", () => {
    for (const status of CAMPAIGN_STATUSES) {
      const c = event(status, days(3), "rejected");
      expect(actionState(c, now)).toBe("rejected");
      expect(ACTIONS.filter((a) => offers(c, a, now))).toEqual(["edit"]);
    }
  });

  it("an event awaiting approval is not shared nor put on a flyer (others cannot open it)", () => {
    const c = event("pending", days(3), "pending");
    expect(actionState(c, now)).toBe("unapproved");
    expect(offers(c, "share", now)).toBe(false);
    expect(offers(c, "flyer", now)).toBe(false);
    expect(offers(c, "edit", now)).toBe(true);
  });

  it("past its deadline awaiting the result: no Share or Flyer, but Edit, calendar and updates stay", () => {
    const c = event("pending", days(-1));
    expect(actionState(c, now)).toBe("ended");
    expect(ACTIONS.filter((a) => offers(c, a, now))).toEqual(["calendar", "edit", "postUpdate"]);
  });

  it("every state has a full row", () => {
    for (const row of Object.values(EVENT_ACTIONS))
      expect(Object.keys(row).sort()).toEqual([...ACTIONS].sort());
  });
});

describe("joinable (lib/events/lifecycle.ts)", () => {
  it("collecting before the deadline is joinable; after it, not", () => {
    expect(isJoinable({ status: "pending", deadline: days(1) }, now)).toBe(true);
    expect(isJoinable({ status: "pending", deadline: now }, now)).toBe(false);
    expect(isJoinable({ status: "pending", deadline: days(-1) }, now)).toBe(false);
  });

  it("confirmed is joinable only while it keeps accepting (late commitments or a capacity) before the deadline", () => {
    for (const status of ["funded", "charging", "charged"]) {
      expect(isJoinable({ status, deadline: days(2) }, now)).toBe(false);
      expect(isJoinable({ status, deadline: days(2), acceptAfterThreshold: true }, now)).toBe(true);
      expect(isJoinable({ status, deadline: days(2), capacity: 20 }, now)).toBe(true);
      expect(isJoinable({ status, deadline: days(-2), capacity: 20 }, now)).toBe(false);
    }
  });

  it("called off is never joinable", () => {
    for (const status of ["expired", "cancelled"])
      expect(isJoinable({ status, deadline: days(2), acceptAfterThreshold: true, capacity: 5 }, now)).toBe(
        false,
      );
  });

  it("agrees with the commit panel: joinable exactly when a newcomer's call to action is commit or waitlist", () => {
    const facts = { committed: false, openToViewer: true };
    for (const status of CAMPAIGN_STATUSES)
      for (const deadline of [days(-1), days(2)])
        for (const acceptAfterThreshold of [false, true])
          for (const capacity of [null, 3])
            for (const pledgeCount of [0, 3]) {
              const c = { status, deadline, acceptAfterThreshold, capacity, pledgeCount };
              expect(isJoinableCta(callToAction(c, facts, now)), JSON.stringify(c)).toBe(isJoinable(c, now));
            }
  });
});
