import { describe, expect, it } from "vitest";
import { matchesHomeFilter } from "@/lib/campaigns/filters";

const now = new Date("2026-11-21T12:00:00Z");
const days = (n: number) => new Date(now.getTime() + n * 86400_000);

describe("home filters", () => {
  it("all matches everything", () => {
    expect(matchesHomeFilter({ status: "expired", deadline: days(-3) }, "all", now)).toBe(true);
  });
  it("active: collecting and before the deadline", () => {
    expect(matchesHomeFilter({ status: "pending", deadline: days(3) }, "active", now)).toBe(true);
    expect(matchesHomeFilter({ status: "pending", deadline: days(-1) }, "active", now)).toBe(false);
    expect(matchesHomeFilter({ status: "funded", deadline: days(3) }, "active", now)).toBe(false);
  });
  it("funded: threshold reached (funded, charging, charged)", () => {
    for (const status of ["funded", "charging", "charged"])
      expect(matchesHomeFilter({ status, deadline: days(3) }, "funded", now)).toBe(true);
    for (const status of ["pending", "expired", "cancelled"])
      expect(matchesHomeFilter({ status, deadline: days(3) }, "funded", now)).toBe(false);
  });
  it("ending: deadline in the future and within 7 days", () => {
    expect(matchesHomeFilter({ status: "pending", deadline: days(0.01) }, "ending", now)).toBe(true);
    expect(matchesHomeFilter({ status: "pending", deadline: days(7) }, "ending", now)).toBe(true);
    expect(matchesHomeFilter({ status: "pending", deadline: days(7.01) }, "ending", now)).toBe(false);
    expect(matchesHomeFilter({ status: "pending", deadline: now }, "ending", now)).toBe(false);
    expect(matchesHomeFilter({ status: "pending", deadline: days(-1) }, "ending", now)).toBe(false);
  });
  it("ending and active list only events still collecting (issue 16)", () => {
    for (const status of ["funded", "charging", "charged", "expired", "cancelled"]) {
      expect(matchesHomeFilter({ status, deadline: days(2) }, "ending", now)).toBe(false);
      expect(matchesHomeFilter({ status, deadline: days(2) }, "active", now)).toBe(false);
    }
  });
  it("active and ending list joinable events: a confirmed event still taking commitments is one (issue 34)", () => {
    const late = { status: "funded", deadline: days(2), acceptAfterThreshold: true };
    const capped = { status: "charged", deadline: days(2), capacity: 30 };
    for (const c of [late, capped]) {
      expect(matchesHomeFilter(c, "active", now)).toBe(true);
      expect(matchesHomeFilter(c, "ending", now)).toBe(true);
      expect(matchesHomeFilter(c, "funded", now)).toBe(true);
    }
    expect(matchesHomeFilter({ ...late, deadline: days(-1) }, "active", now)).toBe(false);
    expect(matchesHomeFilter({ ...late, deadline: days(10) }, "ending", now)).toBe(false);
  });
});
