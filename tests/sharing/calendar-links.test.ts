import { describe, expect, it } from "vitest";
import { calendarLinks } from "@/lib/campaigns/ics";
import { placeFor, placeLine } from "@/lib/campaigns/place";
import { calendarEventOf, getShareInfo } from "@/lib/sharing/queries";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

const ADDRESS = "221B Baker Street";
const LINK = "https://meet.example/secret-room";
const facts = {
  venue: "Secret Garden",
  address: ADDRESS,
  onlineUrl: null,
  area: "Marylebone",
  addressPrivate: true,
};
const start = new Date("2027-03-05T19:00:00Z");
const entry = (location: string | null) => ({
  title: "Garden party",
  description: "Tea & cake",
  url: "https://pactnexus.test/campaign/abc",
  start,
  end: null,
  timeZone: "Europe/London",
  location,
});

describe("Google Calendar and Outlook links (issue 34 item 7)", () => {
  it("carry the title, the times and the place line, like the .ics", () => {
    const { google, outlook } = calendarLinks(entry(placeLine(placeFor(facts, true))));
    const g = new URL(google);
    expect(g.origin + g.pathname).toBe("https://calendar.google.com/calendar/render");
    expect(g.searchParams.get("action")).toBe("TEMPLATE");
    expect(g.searchParams.get("text")).toBe("Garden party");
    // an end-less event books 2 hours, as the .ics does
    expect(g.searchParams.get("dates")).toBe("20270305T190000Z/20270305T210000Z");
    expect(g.searchParams.get("location")).toBe(`Secret Garden, ${ADDRESS}`);
    expect(g.searchParams.get("ctz")).toBe("Europe/London");
    const o = new URL(outlook);
    expect(o.searchParams.get("subject")).toBe("Garden party");
    expect(o.searchParams.get("startdt")).toBe("2027-03-05T19:00:00.000Z");
    expect(o.searchParams.get("enddt")).toBe("2027-03-05T21:00:00.000Z");
    expect(o.searchParams.get("location")).toBe(`Secret Garden, ${ADDRESS}`);
  });

  it("a visitor's links carry the public area, never the attendee-only address", () => {
    const { google, outlook } = calendarLinks(entry(placeLine(placeFor(facts, false))));
    for (const link of [google, outlook]) {
      expect(decodeURIComponent(link.replace(/\+/g, " "))).not.toContain("Baker");
      expect(new URL(link).searchParams.get("location")).toBe("Secret Garden, Marylebone");
    }
  });

  it("built from the event as the viewer may see it: a visitor's carry no hidden address or link, a committed backer's do", async () => {
    const event = await createCampaign({
      startsAt: new Date(Date.now() + 20 * 86_400_000),
      deadline: new Date(Date.now() + 10 * 86_400_000),
      timeZone: "Europe/London",
      venue: "Secret Garden",
      address: ADDRESS,
      onlineUrl: LINK,
      area: "Marylebone",
      addressPrivate: true,
    });
    const visitor = calendarEventOf((await getShareInfo(event.id, null))!)!;
    const stranger = await createUser();
    const signedIn = calendarEventOf((await getShareInfo(event.id, { id: stranger.id, isAdmin: false }))!)!;
    for (const e of [visitor, signedIn]) {
      const { google, outlook } = calendarLinks(e);
      for (const link of [google, outlook]) {
        const text = decodeURIComponent(link.replace(/\+/g, " "));
        expect(text).not.toContain("Baker");
        expect(text).not.toContain("secret-room");
        expect(text).toContain("Marylebone");
      }
    }
    const backer = await createUser();
    await createPledge(event.id, backer.id);
    const theirs = calendarEventOf((await getShareInfo(event.id, { id: backer.id, isAdmin: false }))!)!;
    expect(new URL(calendarLinks(theirs).google).searchParams.get("location")).toContain(ADDRESS);
  });

  it("no entry and no links before the event has a date", async () => {
    const event = await createCampaign({ startsAt: null });
    expect(calendarEventOf((await getShareInfo(event.id, null))!)).toBeNull();
  });
});
