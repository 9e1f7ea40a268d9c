import { describe, expect, it } from "vitest";
import { paceEstimate, timeLeftText } from "@/lib/sharing/pace";

const DAY = 24 * 3600_000;
const now = new Date("2026-11-21T12:00:00Z");
const base = {
  status: "pending",
  goal: 10,
  createdAt: new Date(now.getTime() - 4 * DAY),
  deadline: new Date(now.getTime() + 4 * DAY),
  commitments: 5,
};

describe("paceEstimate", () => {
  it("says it will tip when the average rate reaches the goal by the deadline", () => {
    // 5 in 4 days, 4 days left: 5 + 5 = 10.
    expect(paceEstimate({ ...base, progress: 5 }, now)).toMatchObject({
      needed: 5,
      projected: 10,
      willTip: true,
      text: "Needs 5 more in 4 days; at the current pace it will tip.",
    });
  });
  it("says it won't when the rate falls short", () => {
    expect(paceEstimate({ ...base, progress: 4 }, now)).toMatchObject({
      needed: 6,
      projected: 8,
      willTip: false,
      text: "Needs 6 more in 4 days; at the current pace it won't tip.",
    });
  });
  it("says it is too early to tell with under 3 commitments or under 12 hours of data (issue 16)", () => {
    expect(paceEstimate({ ...base, progress: 0, commitments: 0 }, now)).toMatchObject({
      willTip: null,
      text: "Needs 10 more in 4 days; too early to tell whether it will tip.",
    });
    const justCreated = { ...base, goal: 10_000, createdAt: new Date(now.getTime() - 60_000) };
    expect(paceEstimate({ ...justCreated, progress: 1, commitments: 1 }, now)?.willTip).toBeNull();
    expect(paceEstimate({ ...justCreated, progress: 5, commitments: 5 }, now)?.willTip).toBeNull();
    expect(paceEstimate({ ...base, progress: 2, commitments: 2 }, now)?.willTip).toBeNull();
    expect(paceEstimate({ ...base, progress: 3, commitments: 3 }, now)?.willTip).toBe(false);
  });
  it("counts dollars for a crowdfund", () => {
    expect(paceEstimate({ ...base, goal: 1000, progress: 250, crowdfund: true }, now)?.text).toBe(
      "Needs $750 more in 4 days; at the current pace it won't tip.",
    );
  });
  it("has nothing to say once the goal is met, after the deadline, or when the event is decided", () => {
    expect(paceEstimate({ ...base, progress: 10 }, now)).toBeNull();
    expect(paceEstimate({ ...base, progress: 3, deadline: new Date(now.getTime() - 1) }, now)).toBeNull();
    expect(paceEstimate({ ...base, progress: 3, status: "expired" }, now)).toBeNull();
  });
  it("words the time left in the largest whole unit", () => {
    expect(timeLeftText(1 * DAY + 5 * 3600_000)).toBe("1 day");
    expect(timeLeftText(5 * 3600_000)).toBe("5 hours");
    expect(timeLeftText(1 * 3600_000)).toBe("1 hour");
    expect(timeLeftText(90_000)).toBe("1 minute");
    expect(timeLeftText(10)).toBe("1 minute");
  });
});
