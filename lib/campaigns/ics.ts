import { tzlib_get_ical_block } from "timezones-ical-library";
import { toWallClock } from "@/lib/campaigns/event-time";

/**
 * iCalendar (RFC 5545) for an event: attached TENTATIVE when someone commits, CONFIRMED with the
 * same UID (and a higher SEQUENCE) once the threshold is met, so calendars update the entry
 * instead of adding a second one. Times are in the event's zone (DTSTART;TZID with its VTIMEZONE).
 */
export type IcsStatus = "TENTATIVE" | "CONFIRMED" | "CANCELLED";

type IcsEvent = {
  campaignId: string;
  title: string;
  description: string;
  url: string;
  /** The event's start and end (an end-less event books 2 hours). */
  start: Date;
  end?: Date | null;
  /** The event's IANA zone. */
  timeZone?: string;
  /** What the viewer may see of the place (lib/campaigns/place placeLine). */
  location?: string | null;
  /** The campaign's stored calendarSequence: moves when the date or place changes. */
  sequence?: number;
  status: IcsStatus;
  /** Creation/modification stamp; defaults to now. */
  stamp?: Date;
};

/** Stable per event: every calendar file of one event carries it. */
export const icsUid = (campaignId: string) => `campaign-${campaignId}@pactnexus`;

/**
 * SEQUENCE = the stored sequence (edits) + the status's rank: both only grow (TENTATIVE → CONFIRMED
 * → CANCELLED), so every revision of the entry carries a higher number than the one before.
 */
const STATUS_RANK: Record<IcsStatus, number> = { TENTATIVE: 0, CONFIRMED: 1, CANCELLED: 2 };
export const icsSequence = (stored: number, status: IcsStatus) => stored + STATUS_RANK[status];

/** A local date-time in the zone, as DTSTART;TZID= wants it: 20261201T190000. */
const local = (d: Date, zone: string) => `${toWallClock(d.getTime(), zone).replace(/[-:]/g, "")}00`;

/** The zone's VTIMEZONE (its current rules); null for UTC or a zone the library does not know. */
function vtimezone(zone: string): string[] | null {
  if (zone === "UTC" || zone === "Etc/UTC") return null;
  const block = tzlib_get_ical_block(zone);
  const text = Array.isArray(block) ? block[0] : "";
  if (!text || !text.startsWith("BEGIN:VTIMEZONE")) return null;
  return text.split(/\r?\n/).filter(Boolean);
}

const utc = (d: Date) =>
  d
    .toISOString()
    .replace(/[-:]/g, "")
    .replace(/\.\d{3}/, "");

/** RFC 5545 §3.3.11 TEXT escaping. */
const icsEscape = (s: string) =>
  s
    .replace(/\\/g, "\\\\")
    .replace(/;/g, "\\;")
    .replace(/,/g, "\\,")
    .replace(/\r\n|\r|\n/g, "\\n");

/** RFC 5545 §3.1: lines longer than 75 octets are folded (CRLF + space), never inside a UTF-8 character. */
export function foldLine(line: string): string {
  const out: string[] = [];
  let current = "";
  let octets = 0;
  for (const ch of line) {
    const size = Buffer.byteLength(ch, "utf8");
    const limit = out.length === 0 ? 75 : 74; // continuation lines start with a space
    if (octets + size > limit) {
      out.push(current);
      current = "";
      octets = 0;
    }
    current += ch;
    octets += size;
  }
  out.push(current);
  return out.join("\r\n ");
}

export function buildIcs(e: IcsEvent): string {
  const end = e.end ?? new Date(e.start.getTime() + 120 * 60_000);
  const zone = e.timeZone ?? "UTC";
  const tz = vtimezone(zone);
  const at = (name: string, d: Date) => (tz ? `${name};TZID=${zone}:${local(d, zone)}` : `${name}:${utc(d)}`);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//PactNexus//Events//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    ...(tz ?? []),
    "BEGIN:VEVENT",
    `UID:${icsUid(e.campaignId)}`,
    `SEQUENCE:${icsSequence(e.sequence ?? 0, e.status)}`,
    `DTSTAMP:${utc(e.stamp ?? new Date())}`,
    at("DTSTART", e.start),
    at("DTEND", end),
    `SUMMARY:${icsEscape(e.title)}`,
    `DESCRIPTION:${icsEscape(e.description)}`,
    ...(e.location ? [`LOCATION:${icsEscape(e.location)}`] : []),
    `URL:${e.url}`,
    `STATUS:${e.status}`,
    "END:VEVENT",
    "END:VCALENDAR",
  ];
  return lines.map(foldLine).join("\r\n") + "\r\n";
}

/** The outbox attachment for an event's calendar file. */
export function icsAttachment(e: IcsEvent) {
  return {
    filename: "event.ics",
    contentType: "text/calendar; charset=utf-8; method=PUBLISH",
    content: buildIcs(e),
  };
}

/** What a calendar link needs: the same fields as the .ics file (built from the same place). */
type CalendarLinkEvent = Pick<
  IcsEvent,
  "title" | "description" | "url" | "start" | "end" | "timeZone" | "location"
>;

/**
 * "Add to Google Calendar" and "Add to Outlook" links beside the .ics (issue 34 item 7). They carry
 * the same title, times and place line as the file — the place as this viewer may see it
 * (lib/campaigns/place placeFor), so an attendee-only address never reaches a visitor's link.
 */
export function calendarLinks(e: CalendarLinkEvent): { google: string; outlook: string } {
  const end = e.end ?? new Date(e.start.getTime() + 120 * 60_000);
  const google = new URLSearchParams({
    action: "TEMPLATE",
    text: e.title,
    dates: `${utc(e.start)}/${utc(end)}`,
    details: e.description,
    ...(e.location ? { location: e.location } : {}),
    ...(e.timeZone ? { ctz: e.timeZone } : {}),
  });
  const outlook = new URLSearchParams({
    path: "/calendar/action/compose",
    rru: "addevent",
    subject: e.title,
    startdt: e.start.toISOString(),
    enddt: end.toISOString(),
    body: e.description,
    ...(e.location ? { location: e.location } : {}),
  });
  return {
    google: `https://calendar.google.com/calendar/render?${google}`,
    outlook: `https://outlook.live.com/calendar/0/deeplink/compose?${outlook}`,
  };
}
