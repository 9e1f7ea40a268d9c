import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";

/**
 * Inputs of the payment endpoints, shared by the card forms and the route handlers. The demo card
 * checks give Stripe's own messages, so the demo form reads like Stripe Elements.
 */
export const CARD_MESSAGES = {
  numberIncomplete: "Your card number is incomplete.",
  numberIncorrect: "Your card number is incorrect.",
  expiryIncomplete: "Your card's expiration date is incomplete.",
  expiryMonthInvalid: "Your card's expiration month is invalid.",
  expiryYearPast: "Your card's expiration year is in the past.",
  expired: "Your card has expired.",
  expiryYearInvalid: "Your card's expiration year is invalid.",
  cvcIncomplete: "Your card's security code is incomplete.",
  declined: "Your card was declined.",
  notATestCard:
    "Demo payments take test card numbers only, such as 4242 4242 4242 4242. Never enter a real card here.",
} as const;

const digitsOnly = (s: string) => s.replace(/[\s-]/g, "");

function luhnValid(number: string): boolean {
  let sum = 0;
  let double = false;
  for (let i = number.length - 1; i >= 0; i--) {
    let d = number.charCodeAt(i) - 48;
    if (d < 0 || d > 9) return false;
    if (double) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
    double = !double;
  }
  return number.length > 0 && sum % 10 === 0;
}

/**
 * The only numbers demo payments take (DESIGN §1 "card on file": "accepts only the documented test
 * numbers"): Stripe's published test cards — one per brand, and the four whose behaviour README and
 * DESIGN document (0002 declined on save, 0341 charge fails, 3184 needs authentication).
 */
export const DEMO_TEST_CARDS: ReadonlySet<string> = new Set([
  "4242424242424242", // Visa
  "4000056655665556", // Visa (debit)
  "5555555555554444", // Mastercard
  "2223003122003222", // Mastercard (2-series)
  "5200828282828210", // Mastercard (debit)
  "378282246310005", // American Express
  "371449635398431", // American Express
  "6011111111111117", // Discover
  "4000000000000002", // declined on save
  "4000000000000341", // saves, its charge fails
  "4000002760003184", // saves, an off-session charge needs authentication
]);

export function cardBrand(number: string): string {
  if (/^4/.test(number)) return "visa";
  if (/^(5[1-5]|2[2-7])/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  if (/^(6011|65|64[4-9])/.test(number)) return "discover";
  return "unknown";
}

/** Card-form fields are checked in the order Stripe Elements reports them. */
type CardCheck =
  | { ok: true; number: string; brand: string; expMonth: number; expYear: number }
  | { ok: false; code: string; message: string; field: "cardNumber" | "expiry" | "cvc" };

export function checkCard(
  input: { cardNumber: string; expMonth: number | string; expYear: number | string; cvc: string },
  now = new Date(),
): CardCheck {
  const number = digitsOnly(String(input.cardNumber ?? ""));
  const brand = cardBrand(number);
  const wantLength = brand === "amex" ? 15 : 16;
  if (!/^\d*$/.test(number))
    return { ok: false, code: "invalid_number", message: CARD_MESSAGES.numberIncorrect, field: "cardNumber" };
  if (number.length < wantLength)
    return {
      ok: false,
      code: "incomplete_number",
      message: CARD_MESSAGES.numberIncomplete,
      field: "cardNumber",
    };
  if (number.length > 19 || !luhnValid(number))
    return {
      ok: false,
      code: "incorrect_number",
      message: CARD_MESSAGES.numberIncorrect,
      field: "cardNumber",
    };
  // Issue 31: the demo gateway is no place for a real card. The form checks this before it sends
  // anything, and the server checks it again, so a real number never reaches the demo gateway's store.
  if (!DEMO_TEST_CARDS.has(number))
    return { ok: false, code: "not_a_test_card", message: CARD_MESSAGES.notATestCard, field: "cardNumber" };
  const monthText = String(input.expMonth ?? "").trim();
  const yearText = String(input.expYear ?? "").trim();
  if (!/^\d{1,2}$/.test(monthText) || !/^\d{2}(\d{2})?$/.test(yearText)) {
    return { ok: false, code: "incomplete_expiry", message: CARD_MESSAGES.expiryIncomplete, field: "expiry" };
  }
  const expMonth = Number(monthText);
  const expYear = yearText.length === 2 ? 2000 + Number(yearText) : Number(yearText);
  if (expMonth < 1 || expMonth > 12)
    return {
      ok: false,
      code: "invalid_expiry_month",
      message: CARD_MESSAGES.expiryMonthInvalid,
      field: "expiry",
    };
  // Card expiry is the end of the month, read in UTC like the provider does.
  const year = now.getUTCFullYear();
  const month = now.getUTCMonth() + 1;
  if (expYear < year)
    return {
      ok: false,
      code: "invalid_expiry_year_past",
      message: CARD_MESSAGES.expiryYearPast,
      field: "expiry",
    };
  if (expYear === year && expMonth < month)
    return { ok: false, code: "expired_card", message: CARD_MESSAGES.expired, field: "expiry" };
  if (expYear > year + 50)
    return {
      ok: false,
      code: "invalid_expiry_year",
      message: CARD_MESSAGES.expiryYearInvalid,
      field: "expiry",
    };
  const cvc = String(input.cvc ?? "").trim();
  if (!/^\d+$/.test(cvc) || cvc.length < (brand === "amex" ? 4 : 3) || cvc.length > 4) {
    return { ok: false, code: "incomplete_cvc", message: CARD_MESSAGES.cvcIncomplete, field: "cvc" };
  }
  return { ok: true, number, brand, expMonth, expYear };
}

/** Body of POST /api/demo-payments/confirm-setup (the demo stand-in for stripe.confirmSetup). */
export const confirmDemoSetupSchema = z.object({
  clientSecret: z.string().trim().min(1, "clientSecret is required").max(200),
  cardNumber: z.string().max(40).default(""),
  expMonth: z.union([z.string().max(4), z.number().int()]).default(""),
  expYear: z.union([z.string().max(6), z.number().int()]).default(""),
  cvc: z.string().max(8).default(""),
});
export type ConfirmDemoSetupInput = z.infer<typeof confirmDemoSetupSchema>;

/** Body of POST /api/create-setup-intent: SPEC §7 sends {email}; the signed-in viewer is authoritative. */
export const createSetupIntentSchema = z.object({ email: z.string().max(254).optional() });

/** The demo test cards of DESIGN §1 and what they do. The other test numbers behave like 4242. */
export const DEMO_DECLINED_ON_SAVE = "4000000000000002";
export const DEMO_BEHAVIOR: Record<string, "ok" | "charge_fails" | "authentication_required"> = {
  "4000000000000341": "charge_fails",
  "4000002760003184": "authentication_required",
};
