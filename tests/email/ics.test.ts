import { describe, expect, it } from "vitest";
import { buildIcs, foldLine, icsUid } from "@/lib/campaigns/ics";
import { renderEmail } from "@/lib/email/render";

/** A small RFC 5545 reader: unfolds lines and returns the properties of the VEVENT. */
function parseIcs(text: string) {
  expect(text.endsWith("\r\n")).toBe(true);
  const physical = text.slice(0, -2).split("\r\n");
  for (const line of physical) expect(Buffer.byteLength(line, "utf8")).toBeLessThanOrEqual(75);
  expect(text.replace(/\r\n/g, "")).not.toMatch(/[\r\n]/); // no bare LF or CR
  const lines: string[] = [];
  for (const l of physical) {
    if (l.startsWith(" ")) lines[lines.length - 1] += l.slice(1);
    else lines.push(l);
  }
  const stack: string[] = [];
  const event: Record<string, string> = {};
  for (const l of lines) {
    const i = l.indexOf(":");
    const [name, value] = [l.slice(0, i), l.slice(i + 1)];
    if (name === "BEGIN") stack.push(value);
    else if (name === "END") expect(stack.pop()).toBe(value);
    else if (stack.at(-1) === "VEVENT") event[name] = value;
  }
  expect(stack).toEqual([]);
  expect(lines[0]).toBe("BEGIN:VCALENDAR");
  expect(lines).toContain("VERSION:2.0");
  return event;
}

const unescape = (s: string) => s.replace(/\\n/g, "\n").replace(/\\([,;\\])/g, "$1");

describe("buildIcs", () => {
  const base = {
    campaignId: "cmp123",
    title: "Picnic; games, and \\ fun",
    description:
      "Line one\nLine two — with a long description that certainly needs folding because it goes on and on ünïcödé ✓✓✓",
    url: "https://pactnexus.example/campaign/cmp123",
    start: new Date("2026-12-05T18:30:00Z"),
    stamp: new Date("2026-11-21T10:00:00Z"),
  };

  it("is a valid calendar: TENTATIVE on commit, CONFIRMED later with the same UID and a higher SEQUENCE", () => {
    const tentative = parseIcs(buildIcs({ ...base, status: "TENTATIVE" }));
    const confirmed = parseIcs(buildIcs({ ...base, status: "CONFIRMED" }));
    expect(tentative.STATUS).toBe("TENTATIVE");
    expect(confirmed.STATUS).toBe("CONFIRMED");
    expect(tentative.UID).toBe(icsUid("cmp123"));
    expect(confirmed.UID).toBe(tentative.UID);
    expect(Number(confirmed.SEQUENCE)).toBeGreaterThan(Number(tentative.SEQUENCE));
    expect(tentative.DTSTART).toBe("20261205T183000Z");
    expect(tentative.DTEND).toBe("20261205T203000Z");
    expect(tentative.DTSTAMP).toBe("20261121T100000Z");
    expect(unescape(tentative.SUMMARY)).toBe(base.title);
    expect(unescape(tentative.DESCRIPTION)).toBe(base.description);
    expect(tentative.URL).toBe(base.url);
  });

  it("escapes a lone CR as well as LF and CRLF (a bare CR would end the line for some readers)", () => {
    const ics = buildIcs({ ...base, status: "TENTATIVE", description: "one\rtwo\nthree\r\nfour" });
    const parsed = parseIcs(ics); // fails on any bare CR or LF
    expect(parsed.DESCRIPTION).toBe("one\\ntwo\\nthree\\nfour");
  });

  it("folds at 75 octets without splitting a UTF-8 character", () => {
    const line = `DESCRIPTION:${"é".repeat(100)}`;
    const folded = foldLine(line);
    for (const part of folded.split("\r\n")) expect(Buffer.byteLength(part, "utf8")).toBeLessThanOrEqual(75);
    expect(
      folded
        .split("\r\n")
        .map((p, i) => (i ? p.slice(1) : p))
        .join(""),
    ).toBe(line);
  });
});

describe("renderEmail", () => {
  it("produces plain text and escaped HTML, with an unsubscribe link only when given", () => {
    const r = renderEmail({
      heading: "Hi <there>",
      paragraphs: ['A & B "quoted"'],
      action: { label: "Go", url: "https://x.test/?a=1&b=2" },
    });
    expect(r.text).toContain("Hi <there>");
    expect(r.text).toContain("Go: https://x.test/?a=1&b=2");
    expect(r.html).toContain("Hi &lt;there&gt;");
    expect(r.html).toContain("A &amp; B &quot;quoted&quot;");
    expect(r.html).toContain('href="https://x.test/?a=1&amp;b=2"');
    expect(r.html).not.toContain("nsubscribe");
    const withUnsub = renderEmail({
      heading: "H",
      paragraphs: [],
      unsubscribe: {
        page: "https://x.test/unsubscribe?token=t",
        oneClick: "https://x.test/api/unsubscribe?token=t",
      },
    });
    expect(withUnsub.text).toContain("Unsubscribe from these emails: https://x.test/unsubscribe?token=t");
    expect(withUnsub.html).toContain('href="https://x.test/unsubscribe?token=t"');
    expect(withUnsub.headers).toEqual({
      "List-Unsubscribe": "<https://x.test/api/unsubscribe?token=t>",
      "List-Unsubscribe-Post": "List-Unsubscribe=One-Click",
    });
    expect(r.headers).toBeUndefined();
  });
});

describe("buildIcs in the event's zone, read by a real parser (node-ical)", () => {
  it("has the start and end in the event's zone, its VTIMEZONE, the location, URL and stored SEQUENCE", async () => {
    const ical = (await import("node-ical")).default;
    const text = buildIcs({
      campaignId: "cmp9",
      title: "Film night",
      description: "Doors open early",
      url: "https://pactnexus.example/campaign/cmp9",
      start: new Date("2026-12-06T00:30:00Z"), // Dec 5, 7:30 PM in New York
      end: new Date("2026-12-06T03:00:00Z"),
      timeZone: "America/New_York",
      location: "Roxy Cinema, 2 6th Ave",
      sequence: 2,
      status: "CONFIRMED",
    });
    expect(text).toContain("DTSTART;TZID=America/New_York:20261205T193000");
    expect(text).toContain("BEGIN:VTIMEZONE");
    const parsed = ical.sync.parseICS(text);
    const event = Object.values(parsed).find((c) => c?.type === "VEVENT");
    if (!event || event.type !== "VEVENT" || !event.end) throw new Error("no VEVENT with an end");
    expect(new Date(event.start).toISOString()).toBe("2026-12-06T00:30:00.000Z");
    expect(new Date(event.end).toISOString()).toBe("2026-12-06T03:00:00.000Z");
    expect((event.start as Date & { tz?: string }).tz).toBe("America/New_York");
    expect(event.location).toBe("Roxy Cinema, 2 6th Ave");
    expect(Number(event.sequence)).toBe(3); // stored 2 + CONFIRMED's rank 1
  });
});
