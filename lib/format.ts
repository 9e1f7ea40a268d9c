/** Formatting shared by server and client. Money is integer cents everywhere but on screen. */

// Building an Intl formatter costs far more than using one (a signed-in event page formats hundreds
// of dates), so each kind is built once per time zone and reused.
const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });
const DATE = { year: "numeric", month: "short", day: "numeric" } as const;
const DATE_TIME = { ...DATE, hour: "numeric", minute: "2-digit" } as const;
const formatters = new Map<string, Intl.DateTimeFormat>();

function dateFormatter(kind: "date" | "dateTime", timeZone: string | undefined): Intl.DateTimeFormat {
  const key = `${kind} ${timeZone ?? ""}`;
  let f = formatters.get(key);
  if (!f) {
    f = new Intl.DateTimeFormat("en-US", { ...(kind === "date" ? DATE : DATE_TIME), timeZone });
    if (formatters.size < 500) formatters.set(key, f); // time zones are a closed set; the cap is a guard
  }
  return f;
}

export function formatCents(cents: number): string {
  return usd.format(cents / 100);
}

/** Dollars as typed in a form ("12.5") to integer cents, or null when it is not a number. */
export function dollarsToCents(input: string | number): number | null {
  const text = String(input).trim();
  if (!/^\d+(\.\d{0,2})?$/.test(text)) return null;
  const [whole, frac = ""] = text.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}

export function formatDate(date: Date | string, timeZone?: string): string {
  return dateFormatter("date", timeZone).format(new Date(date));
}

export function formatDateTime(date: Date | string, timeZone?: string): string {
  return dateFormatter("dateTime", timeZone).format(new Date(date));
}

/**
 * Sentences built from numbers (issue 34 item 7): the word that agrees with `n` — "is" or "are",
 * "person" or "people" — without the number. SPEC's own strings ("Goal: N attendees") keep SPEC's words.
 */
export const pluralWord = (n: number, one: string, many: string) => (n === 1 ? one : many);

/** A count and its noun: "1 attendee", "3 attendees". */
export const plural = (n: number, one: string, many: string) => `${n} ${pluralWord(n, one, many)}`;

export function progressPercent(count: number, goal: number): number {
  if (goal <= 0) return 0;
  return Math.min(100, Math.round((count / goal) * 100));
}

/** A saved card in words: "Visa ending in 4242" (`fallback` when its last digits are not known). */
export function cardInWords(brand: string | null, last4: string | null, fallback: string): string {
  if (!last4) return fallback;
  return `${brand ? brand[0].toUpperCase() + brand.slice(1) : "Card"} ending in ${last4}`;
}

/** A card in short: "Visa ·4242" (DESIGN §1 "card on file"). */
export const cardShort = (brand: string | null, last4: string) =>
  `${brand ? brand[0].toUpperCase() + brand.slice(1) : "Card"} ·${last4}`;

/** One CSV cell: quoted, and a leading formula character neutralised (spreadsheet injection). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}
