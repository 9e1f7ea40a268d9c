import { describe, expect, it } from "vitest";
import { dollarsToCents, formatCents, plural, pluralWord, progressPercent } from "@/lib/format";

describe("money", () => {
  it("formats integer cents as dollars", () => {
    expect(formatCents(0)).toBe("$0.00");
    expect(formatCents(1205)).toBe("$12.05");
    expect(formatCents(1_000_000)).toBe("$10,000.00");
  });
  it.each([
    ["12", 1200],
    ["12.5", 1250],
    ["0.01", 1],
    ["10000", 1_000_000],
    [" 7.00 ", 700],
  ])("parses %s dollars to %i cents without floating-point error", (input, cents) => {
    expect(dollarsToCents(input)).toBe(cents);
  });
  it.each(["", "abc", "-1", "1.234", "1e3", "0x10"])("refuses %j", (input) => {
    expect(dollarsToCents(input)).toBeNull();
  });
});

describe("progress", () => {
  it("is capped at 100%", () => {
    expect(progressPercent(5, 10)).toBe(50);
    expect(progressPercent(15, 10)).toBe(100);
    expect(progressPercent(0, 10)).toBe(0);
  });
  it("pluralises", () => {
    expect(plural(1, "person", "people")).toBe("1 person");
    expect(plural(2, "person", "people")).toBe("2 people");
  });
});

describe("sentences built from numbers (issue 34 item 7)", () => {
  it("pluralWord gives the word that agrees with the number", () => {
    expect(pluralWord(1, "is", "are")).toBe("is");
    expect(pluralWord(0, "is", "are")).toBe("are");
    expect(pluralWord(3, "person is", "people are")).toBe("people are");
    expect(plural(1, "attendee", "attendees")).toBe("1 attendee");
    expect(plural(0, "attendee", "attendees")).toBe("0 attendees");
  });
});
