/**
 * iCalendar (RFC 5545) for an event: attached TENTATIVE when someone commits, CONFIRMED with the
 * same UID (and a higher SEQUENCE) once the threshold is met, so calendars update the entry
 * instead of adding a second one.
 */
export type IcsStatus = "TENTATIVE" | "CONFIRMED" | "CANCELLED";

type IcsEvent = {
  campaignId: string;
  title: string;
  description: string;
  url: string;
  /** The event's start: the campaign deadline (the moment it happens or not). */
  start: Date;
  durationMinutes?: number;
  status: IcsStatus;
  /** Creation/modification stamp; defaults to now. */
  stamp?: Date;
};

/** Stable per event: every calendar file of one event carries it. */
export const icsUid = (campaignId: string) => `campaign-${campaignId}@pactnexus`;

const SEQUENCE: Record<IcsStatus, number> = { TENTATIVE: 0, CONFIRMED: 1, CANCELLED: 2 };

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
  const end = new Date(e.start.getTime() + (e.durationMinutes ?? 120) * 60_000);
  const lines = [
    "BEGIN:VCALENDAR",
    "VERSION:2.0",
    "PRODID:-//PactNexus//Events//EN",
    "CALSCALE:GREGORIAN",
    "METHOD:PUBLISH",
    "BEGIN:VEVENT",
    `UID:${icsUid(e.campaignId)}`,
    `SEQUENCE:${SEQUENCE[e.status]}`,
    `DTSTAMP:${utc(e.stamp ?? new Date())}`,
    `DTSTART:${utc(e.start)}`,
    `DTEND:${utc(end)}`,
    `SUMMARY:${icsEscape(e.title)}`,
    `DESCRIPTION:${icsEscape(e.description)}`,
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
