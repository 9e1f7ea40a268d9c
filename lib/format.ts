/** Formatting shared by server and client. Money is integer cents everywhere but on screen. */

export function formatCents(cents: number): string {
  return new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(cents / 100);
}

/** Dollars as typed in a form ("12.5") to integer cents, or null when it is not a number. */
export function dollarsToCents(input: string | number): number | null {
  const text = String(input).trim();
  if (!/^\d+(\.\d{0,2})?$/.test(text)) return null;
  const [whole, frac = ""] = text.split(".");
  return Number(whole) * 100 + Number(frac.padEnd(2, "0"));
}

export function formatDate(date: Date | string, timeZone?: string): string {
  return new Intl.DateTimeFormat("en-US", { year: "numeric", month: "short", day: "numeric", timeZone }).format(
    new Date(date),
  );
}

export function formatDateTime(date: Date | string, timeZone?: string): string {
  return new Intl.DateTimeFormat("en-US", {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
  }).format(new Date(date));
}

export const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`;

export function progressPercent(count: number, goal: number): number {
  if (goal <= 0) return 0;
  return Math.min(100, Math.round((count / goal) * 100));
}
