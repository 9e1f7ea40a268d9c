import { describe, expect, it } from "vitest";
import { countdownParts, formatTimeLeft } from "@/lib/campaigns/countdown";

const now = new Date("2026-11-21T10:00:00Z");
const plus = (ms: number) => new Date(now.getTime() + ms);
const S = 1000,
  M = 60 * S,
  H = 60 * M,
  D = 24 * H;

describe("countdownParts", () => {
  it("splits the remaining time into days, hours, minutes and seconds", () => {
    expect(countdownParts(plus(2 * D + 3 * H + 4 * M + 5 * S), now)).toEqual({
      ended: false,
      days: 2,
      hours: 3,
      minutes: 4,
      seconds: 5,
    });
  });
  it("floors partial seconds", () => {
    expect(countdownParts(plus(59 * S + 999), now)).toEqual({
      ended: false,
      days: 0,
      hours: 0,
      minutes: 0,
      seconds: 59,
    });
  });
  it("has ended exactly at and after the deadline", () => {
    expect(countdownParts(now, now).ended).toBe(true);
    expect(countdownParts(plus(-5 * M), now)).toEqual({
      ended: true,
      days: 0,
      hours: 0,
      minutes: 0,
      seconds: 0,
    });
    expect(countdownParts(plus(1), now).ended).toBe(false);
  });
  it("accepts ISO strings (as sent to the client)", () => {
    expect(countdownParts(plus(D).toISOString(), now.getTime())).toMatchObject({
      days: 1,
      hours: 0,
      minutes: 0,
    });
  });
});

describe("formatTimeLeft", () => {
  it("names days, hours and minutes with singular and plural units", () => {
    expect(formatTimeLeft(plus(1 * D + 1 * H + 1 * M), now)).toBe("1 day, 1 hour, 1 minute");
    expect(formatTimeLeft(plus(3 * D + 2 * H + 30 * M), now)).toBe("3 days, 2 hours, 30 minutes");
  });
  it("drops leading zero units", () => {
    expect(formatTimeLeft(plus(5 * H + 7 * M), now)).toBe("5 hours, 7 minutes");
    expect(formatTimeLeft(plus(2 * M + 9 * S), now)).toBe("2 minutes, 9 seconds");
    expect(formatTimeLeft(plus(42 * S), now)).toBe("42 seconds");
  });
  it("says Campaign ended after the deadline", () => {
    expect(formatTimeLeft(plus(-1), now)).toBe("Campaign ended");
  });
});
