import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import {
  ADDRESS_MAX,
  AREA_MAX,
  GOAL_MAX,
  ONLINE_URL_MAX,
  REFUND_BONUS_MAX,
  REFUND_BONUS_MIN,
  START_MAX_MS,
  TICKET_PRICE_MAX_DOLLARS,
  VENUE_MAX,
} from "@/lib/campaigns/limits";
import { WALL_CLOCK, fromWallClock, isTimeZone } from "@/lib/campaigns/event-time";
import { formatCents } from "@/lib/format";
import { isPaidEvent } from "@/lib/events/lifecycle";
import { REFUND_BONUS_TEXTS } from "@/lib/campaigns/texts";

/*
 * The field parsers the create and draft schemas (lib/campaigns/schema.ts) share, and the ones the
 * form runs as you type (the price it understood). Inputs arrive as strings from the form; numbers
 * are accepted from other callers.
 */

export const text = z.union([z.string(), z.number()]).transform((v) => String(v).trim());
// .optional() (not a z.undefined() member) is what lets zod 4 accept the key being absent: an
// omitted field was otherwise refused with "Invalid input: expected nonoptional".
export const optionalText = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? "" : String(v).trim()));

export const fail = (ctx: z.RefinementCtx, message: string) => {
  ctx.issues.push({ code: "custom", message, input: undefined });
  return z.NEVER;
};

/** Goal: a whole number of people, 1..10,000. */
export function parseGoal(raw: string, ctx: z.RefinementCtx): number {
  if (raw === "" || !/^-?\d+(\.\d+)?$/.test(raw)) return fail(ctx, "Goal amount is required");
  const n = Number(raw);
  if (n <= 0) return fail(ctx, "Goal must be greater than 0");
  if (n > GOAL_MAX) return fail(ctx, "Goal cannot exceed 10,000 people");
  if (!Number.isInteger(n)) return fail(ctx, "Goal must be a whole number");
  return n;
}

// ---- capacity (issue 20, DESIGN §1 "capacity and waitlist") ----------------------------------------

export const CAPACITY_TEXTS = {
  invalid: `Capacity must be a whole number from 1 to ${GOAL_MAX.toLocaleString("en-US")}`,
  belowGoal: (goal: number) => `Capacity must be at least the goal (${goal.toLocaleString("en-US")})`,
  lowered: (was: number) => `Capacity can only be raised (it is ${was.toLocaleString("en-US")})`,
  lateLimit: "A capacity can only be set before anyone commits.",
  crowdfund: "A crowdfund counts dollars, so it has no capacity.",
} as const;

/** "" → no capacity (null); else a whole number of people, 1 to 10,000 (checked against the goal by the caller). */
export function parseCapacity(raw: string, ctx: z.RefinementCtx): number | null {
  if (raw === "") return null;
  const n = Number(raw.replace(/,/g, ""));
  if (!/^\d[\d,]*$/.test(raw) || !Number.isInteger(n) || n < 1 || n > GOAL_MAX)
    return fail(ctx, CAPACITY_TEXTS.invalid);
  return n;
}

// ---- money as people type it (issue 16 item 4) -------------------------------------------------------

export const PRICE_INVALID = "Ticket price must be a valid number";
export const PRICE_NEGATIVE = "Ticket price cannot be negative";
export const PRICE_TOO_HIGH = "Ticket price cannot exceed $10,000";
export const PRICE_TOO_PRECISE = "Ticket price can have at most two decimals (cents), like 12.50";

export type PriceReading = { ok: true; cents: number } | { ok: false; message: string };

/**
 * A dollar amount as typed, to integer cents: `25`, `25.5`, `25,50` (a comma followed by exactly two
 * final digits is a decimal comma), `1,000` and `1,000.50` (a comma followed by three digits separates
 * thousands), `$25.00`. Empty is free. Anything else is refused with a message that says why.
 */
export function readPrice(input: string): PriceReading {
  const raw = input.replace(/\s+/g, "");
  if (raw === "") return { ok: true, cents: 0 };
  const negative = /^-/.test(raw) || /^\$-/.test(raw);
  const body = raw.replace(/^-?\$?-?/, "");
  let whole: string;
  let frac = "";
  let m: RegExpExecArray | null;
  if ((m = /^(\d+)(?:\.(\d*))?$/.exec(body)) || (m = /^(\d{1,3}(?:,\d{3})+)(?:\.(\d*))?$/.exec(body))) {
    whole = m[1].replace(/,/g, "");
    frac = m[2] ?? "";
  } else if ((m = /^(\d+),(\d{2})$/.exec(body))) {
    whole = m[1];
    frac = m[2];
  } else if ((m = /^\.(\d+)$/.exec(body))) {
    whole = "0";
    frac = m[1];
  } else {
    return { ok: false, message: PRICE_INVALID };
  }
  if (negative) return { ok: false, message: PRICE_NEGATIVE };
  if (frac.length > 2) return { ok: false, message: PRICE_TOO_PRECISE };
  if (whole.length > 7) return { ok: false, message: PRICE_TOO_HIGH };
  const cents = Number(whole) * 100 + Number(frac.padEnd(2, "0"));
  if (cents > TICKET_PRICE_MAX_DOLLARS * 100) return { ok: false, message: PRICE_TOO_HIGH };
  return { ok: true, cents };
}

/** What the form shows under the price as you type: "$25.50 per person", "Free", or null. */
export function describePrice(input: string): string | null {
  const r = readPrice(input);
  if (!r.ok) return null;
  return r.cents === 0 ? "Free: nobody is charged" : `${formatCents(r.cents)} per person`;
}

export function parseTicketPrice(raw: string, ctx: z.RefinementCtx): number {
  const r = readPrice(raw);
  return r.ok ? r.cents : fail(ctx, r.message);
}

// ---- the refund bonus (issue 31, DESIGN §1 "refund bonus") --------------------------------------------

/** Whether the form's values describe a paid event (a crowdfund, or a price above $0 as typed so far). */
export const formIsPaid = (v: { pactType?: string | null; ticketPrice: string }) => {
  const r = readPrice(v.ticketPrice);
  // the refund bonus is a share of the ticket price: a show-up deposit alone does not make room for one
  return isPaidEvent({ pactType: v.pactType, ticketPriceCents: r.ok ? r.cents : 0, depositCents: 0 });
};

/**
 * The refund bonus as stored (0: none) from the form's checkbox and percentage, on an event that is
 * `paid` or not: a whole 1–20 percent, on paid events only. The create and edit paths refuse the rest
 * with the message; a draft keeps what is well-formed.
 */
export function readRefundBonus(
  enabled: boolean,
  raw: string,
  paid: boolean,
): { ok: true; percent: number } | { ok: false; message: string } {
  if (!enabled) return { ok: true, percent: 0 };
  if (!paid) return { ok: false, message: REFUND_BONUS_TEXTS.paidOnly };
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || n < REFUND_BONUS_MIN || n > REFUND_BONUS_MAX)
    return { ok: false, message: REFUND_BONUS_TEXTS.range };
  return { ok: true, percent: n };
}

// ---- times (issue 16 item 2) -------------------------------------------------------------------------

/** Marks a wall-clock time the event's zone skips; the field parser turns it into a message. */
const GAP = "gap:";
export const TIME_FIELDS = ["deadline", "startsAt", "endsAt"] as const;

/**
 * Wall-clock times ("2026-12-01T19:00", as datetime-local inputs hold them) are read in the
 * input's `timeZone` (UTC when none or unknown); instants with an offset ("…Z") pass unchanged.
 * Runs before the fields are parsed, so every field's message still shows at once.
 */
export function readTimesInZone(input: unknown): unknown {
  if (!input || typeof input !== "object" || Array.isArray(input)) return input;
  const o = { ...(input as Record<string, unknown>) };
  const zone = isTimeZone(o.timeZone) ? o.timeZone : "UTC";
  for (const key of TIME_FIELDS) {
    const v = o[key];
    if (typeof v !== "string" || !WALL_CLOCK.test(v.trim())) continue;
    const r = fromWallClock(v.trim(), zone);
    o[key] = r.ok ? r.date.toISOString() : r.reason === "gap" ? `${GAP}${zone}` : "invalid";
  }
  return o;
}

/** The message for a wall-clock time the clocks skip, when `raw` is one; else null. */
export function gapMessage(raw: string, label: string): string | null {
  if (!raw.startsWith(GAP)) return null;
  return `${label} does not exist in ${raw.slice(GAP.length)}: the clocks change then. Choose another time.`;
}

/**
 * A date as typed, or null. Only years 2000–9999: a stored year 10000 or ≤ 0 made every later load of
 * the draft's form fail (ISO strings of such years are "+010000-…"), so they are refused on the way in.
 */
export function parseDate(raw: string): Date | null {
  if (raw === "" || raw.startsWith(GAP)) return null;
  const d = new Date(raw);
  if (Number.isNaN(d.getTime())) return null;
  const year = d.getUTCFullYear();
  return year >= 2000 && year <= 9999 ? d : null;
}

/** An optional event time (start or end): null when empty; a message when malformed or too far. */
export const optionalTime = (label: string, now: () => number) =>
  optionalText.transform((raw, ctx): Date | null => {
    if (raw === "") return null;
    const gap = gapMessage(raw, label);
    if (gap) return fail(ctx, gap);
    const d = parseDate(raw);
    if (!d) return fail(ctx, `${label} must be a valid date and time`);
    if (d.getTime() > now() + START_MAX_MS) return fail(ctx, `${label} cannot be more than 2 years from now`);
    return d;
  });

export const timeZoneField = optionalText.transform((raw, ctx) => {
  if (raw === "") return "UTC";
  return isTimeZone(raw) ? raw : fail(ctx, "Choose a time zone from the list");
});

// ---- place (issue 16 item 1) -------------------------------------------------------------------------

const capped = (max: number, label: string) =>
  optionalText.pipe(z.string().max(max, { error: `${label} must be less than ${max} characters` }));

export const venueField = capped(VENUE_MAX, "Venue");
export const addressField = capped(ADDRESS_MAX, "Address");
export const areaField = capped(AREA_MAX, "Area");
export const onlineUrlField = optionalText.transform((raw, ctx) => {
  if (raw === "") return "";
  if (raw.length > ONLINE_URL_MAX)
    return fail(ctx, `Online link must be less than ${ONLINE_URL_MAX} characters`);
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return fail(ctx, "Online link must be a web address starting with https://");
  }
  if (url.protocol !== "https:" && url.protocol !== "http:")
    return fail(ctx, "Online link must be a web address starting with https://");
  return url.toString();
});

export const bool = (fallback: boolean) =>
  z
    .boolean()
    .optional()
    .transform((v) => v ?? fallback);

export type WhenWhereInput = {
  startsAt: Date | null;
  endsAt: Date | null;
  deadline: Date | null;
  timeZone: string;
  venue: string;
  address: string;
  onlineUrl: string;
  area: string;
  addressPrivate: boolean;
};

/** DESIGN §1: the deadline may not be after the start; an end needs a start and comes after it. */
export function timeOrderProblem(v: WhenWhereInput): { field: string; message: string } | null {
  if (v.endsAt && !v.startsAt) return { field: "startsAt", message: "Add a start time before an end time" };
  if (v.startsAt && v.endsAt && v.endsAt <= v.startsAt)
    return { field: "endsAt", message: "The event must end after it starts" };
  if (v.startsAt && v.deadline && v.deadline > v.startsAt)
    return { field: "deadline", message: "The deadline cannot be after the event starts" };
  return null;
}

/** timeOrderProblem as a zod issue; false when there is one. */
export function timesInOrder(v: WhenWhereInput, ctx: z.RefinementCtx): boolean {
  const problem = timeOrderProblem(v);
  if (problem)
    ctx.issues.push({ code: "custom", message: problem.message, path: [problem.field], input: undefined });
  return problem === null;
}

/** The stored time-and-place columns; an address kept for attendees needs an address. */
export function whenWhere(v: WhenWhereInput) {
  return {
    startsAt: v.startsAt,
    endsAt: v.startsAt ? v.endsAt : null,
    timeZone: v.timeZone,
    venue: v.venue || null,
    address: v.address || null,
    onlineUrl: v.onlineUrl || null,
    area: v.area || null,
    addressPrivate: Boolean(v.address) && v.addressPrivate,
  };
}
