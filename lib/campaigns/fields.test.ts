import { describe, expect, it } from "vitest";
import { describePrice, readPrice } from "@/lib/campaigns/fields";
import { createCampaignSchema, emptyCampaignForm, fieldErrorsOf } from "@/lib/campaigns/schema";
import { draftSchema } from "@/lib/drafts/schema";
import { formatInZone, fromWallClock, yourTime } from "@/lib/campaigns/event-time";

describe("money typed the way people type it (issue 16 item 4)", () => {
  it.each([
    ["25", 2500],
    ["25.5", 2550],
    ["25,50", 2550],
    ["1,000", 100_000],
    ["1,000.50", 100_050],
    ["$25.00", 2500],
    [" $ 12 ", 1200],
    ["", 0],
    ["0", 0],
    [".5", 50],
    ["10,000", 1_000_000],
  ])("%j is %i cents", (input, cents) => expect(readPrice(input)).toEqual({ ok: true, cents }));

  it.each([
    ["12.345", "Ticket price can have at most two decimals (cents), like 12.50"],
    ["25,5", "Ticket price must be a valid number"],
    ["1,00,000", "Ticket price must be a valid number"],
    ["abc", "Ticket price must be a valid number"],
    ["-3", "Ticket price cannot be negative"],
    ["10,000.01", "Ticket price cannot exceed $10,000"],
    ["99999999999", "Ticket price cannot exceed $10,000"],
  ])("%j is refused: %s", (input, message) => expect(readPrice(input)).toEqual({ ok: false, message }));

  it("says what it understood", () => {
    expect(describePrice("25,50")).toBe("$25.50 per person");
    expect(describePrice("1,000")).toBe("$1,000.00 per person");
    expect(describePrice("")).toBe("Free: nobody is charged");
    expect(describePrice("12.345")).toBeNull();
  });
});

describe("wall-clock times in the event's zone (issue 16 item 2)", () => {
  it("reads a New York evening as the right instant", () => {
    const r = fromWallClock("2026-12-01T19:00", "America/New_York");
    expect(r.ok && r.date.toISOString()).toBe("2026-12-02T00:00:00.000Z");
  });
  it("refuses a time the clocks skip and takes the earlier of a time they pass twice", () => {
    expect(fromWallClock("2027-03-14T02:30", "America/New_York")).toEqual({ ok: false, reason: "gap" });
    const r = fromWallClock("2026-11-01T01:30", "America/New_York");
    expect(r.ok && r.date.toISOString()).toBe("2026-11-01T05:30:00.000Z"); // EDT, not EST
  });
  it("shows the zone's abbreviation and the viewer's own time only when the clock differs", () => {
    const at = new Date("2026-12-02T00:00:00Z");
    expect(formatInZone(at, "America/New_York")).toBe("Tue, Dec 1, 2026, 7:00 PM EST");
    expect(yourTime(at, "America/New_York", "America/Los_Angeles")).toBe("4:00 PM PST your time");
    expect(yourTime(at, "America/New_York", "Asia/Tokyo")).toBe("Wed, Dec 2, 9:00 AM GMT+9 your time");
    expect(yourTime(at, "America/New_York", "America/Toronto")).toBeNull();
  });
});

describe("create schema: time and place", () => {
  const NOW = new Date("2026-11-21T12:00:00Z").getTime();
  const schema = createCampaignSchema(() => NOW);
  const base = {
    ...emptyCampaignForm,
    title: "Board game night",
    description: "Bring your favourite games and meet new people.",
    goal: "25",
    ticketPrice: "25,50",
    timeZone: "America/New_York",
    deadline: "2026-12-01T19:00",
  };
  const errors = (o: object) => {
    const r = schema.safeParse({ ...base, ...o });
    return r.success ? {} : fieldErrorsOf(r.error);
  };

  it("stores SPEC's fields alone with no time or place", () => {
    const r = schema.parse(base);
    expect(r.deadline.toISOString()).toBe("2026-12-02T00:00:00.000Z");
    expect(r).toMatchObject({
      ticketPriceCents: 2550,
      startsAt: null,
      endsAt: null,
      venue: null,
      addressPrivate: false,
    });
  });
  it("reads start and end in the event's zone", () => {
    const r = schema.parse({
      ...base,
      startsAt: "2026-12-05T19:30",
      endsAt: "2026-12-05T22:00",
      venue: "Roxy Cinema",
      address: "2 6th Ave",
      addressPrivate: true,
      area: "Tribeca",
    });
    expect(r.startsAt?.toISOString()).toBe("2026-12-06T00:30:00.000Z");
    expect(r.endsAt?.toISOString()).toBe("2026-12-06T03:00:00.000Z");
    expect(r).toMatchObject({
      timeZone: "America/New_York",
      address: "2 6th Ave",
      addressPrivate: true,
      area: "Tribeca",
    });
  });
  it("keeps an address private only when there is one", () => {
    expect(schema.parse({ ...base, addressPrivate: true }).addressPrivate).toBe(false);
  });
  it.each([
    [{ startsAt: "2026-11-30T19:00" }, "deadline", "The deadline cannot be after the event starts"],
    [
      { startsAt: "2026-12-05T19:00", endsAt: "2026-12-05T18:00" },
      "endsAt",
      "The event must end after it starts",
    ],
    [{ endsAt: "2026-12-05T18:00" }, "startsAt", "Add a start time before an end time"],
    [{ timeZone: "Mars/Olympus" }, "timeZone", "Choose a time zone from the list"],
    [
      { onlineUrl: "javascript:alert(1)" },
      "onlineUrl",
      "Online link must be a web address starting with https://",
    ],
    [
      { startsAt: "2027-03-14T02:30" },
      "startsAt",
      "The start does not exist in America/New_York: the clocks change then. Choose another time.",
    ],
    [{ venue: "x".repeat(121) }, "venue", "Venue must be less than 120 characters"],
  ])("%j -> %s: %s", (o, field, message) => expect(errors(o)[field]).toBe(message));

  it("drafts carry the new fields", () => {
    const r = draftSchema.parse({
      ...base,
      startsAt: "2026-12-05T19:30",
      venue: "Roxy",
      timeZone: "Asia/Tokyo",
    });
    expect(r).toMatchObject({ venue: "Roxy", timeZone: "Asia/Tokyo" });
    expect(r.startsAt?.toISOString()).toBe("2026-12-05T10:30:00.000Z");
  });
});
