/**
 * An event's times (issue 16, DESIGN §1 "event time and place"): instants are stored in UTC and
 * shown in the event's own IANA zone with its abbreviation. The create form's inputs are wall-clock
 * times in that zone. `Intl` only — this module runs in the browser too, and a time-zone library
 * there would cost first-load JS.
 */

/** A wall-clock time as a datetime-local input holds it: 2026-12-01T19:00. */
export const WALL_CLOCK = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})$/;

const partsFormatters = new Map<string, Intl.DateTimeFormat>();

function partsFormatter(timeZone: string): Intl.DateTimeFormat {
  let f = partsFormatters.get(timeZone);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    if (partsFormatters.size < 500) partsFormatters.set(timeZone, f);
  }
  return f;
}

/** Whether `zone` is an IANA time-zone name this runtime knows ("UTC" included). */
export function isTimeZone(zone: unknown): zone is string {
  if (typeof zone !== "string" || zone.length === 0 || zone.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** The zone names to offer in a picker (the runtime's list; "UTC" first). */
export function timeZoneNames(): string[] {
  const list = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return ["UTC", ...list.filter((z) => z !== "UTC")];
}

/** The wall-clock fields of `ms` in `timeZone`. */
function wallFields(ms: number, timeZone: string) {
  const out: Record<string, number> = {};
  for (const p of partsFormatter(timeZone).formatToParts(new Date(ms)))
    if (p.type !== "literal") out[p.type] = Number(p.value);
  return out as { year: number; month: number; day: number; hour: number; minute: number; second: number };
}

/** The zone's offset from UTC at `ms`, in ms (New York in winter: -5 h). */
export function zoneOffsetMs(ms: number, timeZone: string): number {
  const f = wallFields(ms, timeZone);
  const asUtc = Date.UTC(f.year, f.month - 1, f.day, f.hour, f.minute, f.second);
  return asUtc - (ms - (((ms % 1000) + 1000) % 1000));
}

/** `ms` as a datetime-local value in `timeZone` (to load a stored time back into the form). */
export function toWallClock(ms: number, timeZone: string): string {
  const f = wallFields(ms, timeZone);
  const pad = (n: number, w = 2) => String(n).padStart(w, "0");
  return `${pad(f.year, 4)}-${pad(f.month)}-${pad(f.day)}T${pad(f.hour)}:${pad(f.minute)}`;
}

export type WallClockResult = { ok: true; date: Date } | { ok: false; reason: "invalid" | "gap" };

/**
 * A wall-clock time in `timeZone` as an instant. A time the clocks skip (the spring-forward gap)
 * does not exist and is refused; a time they pass twice (the autumn fall-back) takes the earlier.
 */
export function fromWallClock(wall: string, timeZone: string): WallClockResult {
  const m = WALL_CLOCK.exec(wall);
  if (!m || !isTimeZone(timeZone)) return { ok: false, reason: "invalid" };
  const [year, month, day, hour, minute] = m.slice(1).map(Number);
  const naive = Date.UTC(year, month - 1, day, hour, minute);
  const back = new Date(naive);
  if (back.getUTCMonth() !== month - 1 || back.getUTCDate() !== day || hour > 23 || minute > 59)
    return { ok: false, reason: "invalid" };
  const DAY = 24 * 60 * 60 * 1000;
  const offsets = new Set([
    zoneOffsetMs(naive - DAY, timeZone),
    zoneOffsetMs(naive, timeZone),
    zoneOffsetMs(naive + DAY, timeZone),
  ]);
  const candidates = [...offsets]
    .map((offset) => naive - offset)
    .filter((t) => toWallClock(t, timeZone) === wall)
    .sort((a, b) => a - b);
  if (candidates.length === 0) return { ok: false, reason: "gap" };
  return { ok: true, date: new Date(candidates[0]) };
}

/** The browser's (or server's) own zone. */
export const localTimeZone = (): string => {
  const zone = new Intl.DateTimeFormat().resolvedOptions().timeZone;
  return isTimeZone(zone) ? zone : "UTC";
};

// ---- showing a time ---------------------------------------------------------------------------------

const zonedFormatters = new Map<string, Intl.DateTimeFormat>();

function zonedFormatter(kind: "full" | "time" | "date" | "day", timeZone: string): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone}`;
  let f = zonedFormatters.get(key);
  if (!f) {
    const base = { timeZone, hour: "numeric", minute: "2-digit", timeZoneName: "short" } as const;
    f = new Intl.DateTimeFormat(
      "en-US",
      kind === "full"
        ? { ...base, weekday: "short", year: "numeric", month: "short", day: "numeric" }
        : kind === "date"
          ? { timeZone, weekday: "short", month: "short", day: "numeric" }
          : kind === "day"
            ? { timeZone, month: "short", day: "numeric", year: "numeric" }
            : base,
    );
    if (zonedFormatters.size < 1000) zonedFormatters.set(key, f);
  }
  return f;
}

/** "Tue, Dec 1, 2026, 7:00 PM EST": a time in a zone, with the zone's abbreviation. */
export const formatInZone = (at: Date | string | number, timeZone: string): string =>
  zonedFormatter("full", timeZone).format(new Date(at));

/** "Nov 23, 2026": the day in the zone. */
export const formatDayInZone = (at: Date | string | number, timeZone: string): string =>
  zonedFormatter("day", timeZone).format(new Date(at));

/** "7:00 PM EST". */
export const formatTimeInZone = (at: Date | string | number, timeZone: string): string =>
  zonedFormatter("time", timeZone).format(new Date(at));

/** Whether two zones show the same wall clock at `at` (then the viewer's own time adds nothing). */
export const sameClock = (at: Date | string | number, a: string, b: string): boolean => {
  const ms = new Date(at).getTime();
  return zoneOffsetMs(ms, a) === zoneOffsetMs(ms, b);
};

/**
 * The viewer's own time for an event time, when their zone shows a different clock:
 * "4:00 PM your time" (with the day when it differs: "Wed, Dec 2, 9:00 AM GMT+9 your time").
 */
export function yourTime(at: Date | string | number, eventZone: string, viewerZone: string): string | null {
  if (!isTimeZone(viewerZone) || sameClock(at, eventZone, viewerZone)) return null;
  const ms = new Date(at).getTime();
  const sameDay = toWallClock(ms, eventZone).slice(0, 10) === toWallClock(ms, viewerZone).slice(0, 10);
  const time = formatTimeInZone(ms, viewerZone);
  return sameDay
    ? `${time} your time`
    : `${zonedFormatter("date", viewerZone).format(new Date(ms))}, ${time} your time`;
}

/**
 * An event's start and end as one line: "Tue, Dec 1, 2026, 7:00 PM – 10:00 PM EST" (the end with its
 * own date when it is another day).
 */
export function formatEventRange(start: Date, end: Date | null, timeZone: string): string {
  if (!end) return formatInZone(start, timeZone);
  const sameDay =
    toWallClock(start.getTime(), timeZone).slice(0, 10) === toWallClock(end.getTime(), timeZone).slice(0, 10);
  if (!sameDay) return `${formatInZone(start, timeZone)} – ${formatInZone(end, timeZone)}`;
  const startText = formatInZone(start, timeZone).replace(/\s\S+$/, ""); // drop the abbreviation once
  return `${startText} – ${formatTimeInZone(end, timeZone)}`;
}
