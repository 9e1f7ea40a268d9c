import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { idSchema, offsetSchema } from "@/lib/ids";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { dollarsToCents, plural } from "@/lib/format";
import { CROWDFUND_MIN_CENTS, isConfirmed } from "@/lib/events/lifecycle";
import { maxPersonalThreshold } from "@/lib/campaigns/thresholds";
import { SEAT_TEXTS, SEATS_MAX } from "@/lib/events/seats";

/**
 * Inputs of the commit flow, shared by the commit modals (client-side messages) and the server
 * action (the authority). Money is integer cents once parsed.
 */
export { CROWDFUND_MIN_CENTS };
const CROWDFUND_MAX_CENTS = 1_000_000; // $10,000, the same ceiling as a ticket price

export const campaignIdSchema = idSchema(ACCESS_TEXTS.campaignNotFound);

/** A crowdfund amount as typed ("25", "25.50") to integer cents. */
export const crowdfundAmountSchema = z
  .string()
  .trim()
  .min(1, "Please enter an amount")
  .transform((text, ctx) => {
    const cents = dollarsToCents(text);
    if (cents === null) {
      ctx.addIssue({ code: "custom", message: "Amount must be a valid number" });
      return z.NEVER;
    }
    if (cents < CROWDFUND_MIN_CENTS) {
      ctx.addIssue({ code: "custom", message: "Amount must be at least $1.00" });
      return z.NEVER;
    }
    if (cents > CROWDFUND_MAX_CENTS) {
      ctx.addIssue({ code: "custom", message: "Amount cannot exceed $10,000" });
      return z.NEVER;
    }
    return cents;
  });

export const PERSONAL_THRESHOLD_TEXTS = {
  invalid: "Enter a whole number of people, from 1 to 10,000.",
  aboveCapacity: (capacity: number) =>
    `This event has ${capacity.toLocaleString("en-US")} places, so your number can be at most ${capacity.toLocaleString("en-US")}.`,
  crowdfund: "A crowdfund counts dollars, so it takes no condition on people.",
  confirmed: "This event is already going ahead, so it takes no condition: you count as soon as you commit.",
  atOrBelowMembers: (members: number) =>
    `${plural(members, "person is", "people are")} in already, so a condition of ${members.toLocaleString("en-US")} or fewer would hold at once. Choose more than ${members.toLocaleString("en-US")}, or commit without a condition.`,
} as const;

/**
 * Why a condition of `n` people is refused on this event now, or null (issue 21; issue 34: not on an
 * event already going ahead, and not at or below the members now, where it would hold at once).
 * The commit dialog asks it before sending; lib/pledges/decide asks it on the row it commits against.
 * `n` of 1 is no condition.
 */
export function conditionRefusal(
  n: number,
  c: { status: string; committedCount: number; capacity: number | null; crowdfund: boolean },
): string | null {
  if (c.crowdfund) return PERSONAL_THRESHOLD_TEXTS.crowdfund;
  if (n > maxPersonalThreshold(c)) return PERSONAL_THRESHOLD_TEXTS.aboveCapacity(maxPersonalThreshold(c));
  if (n <= 1) return null;
  if (isConfirmed(c.status)) return PERSONAL_THRESHOLD_TEXTS.confirmed;
  if (n <= c.committedCount) return PERSONAL_THRESHOLD_TEXTS.atOrBelowMembers(c.committedCount);
  return null;
}

/** Whether the commit dialog offers a condition at all: pactions still collecting (issue 34). */
export const conditionOffered = (c: { status: string; crowdfund: boolean }) =>
  !c.crowdfund && !isConfirmed(c.status);

/** A personal threshold as typed or sent: a whole number of people, 1 to 10,000 ("" or null: none). */
export const personalThresholdSchema = z.preprocess(
  (v) => (v === "" || v === null ? undefined : typeof v === "string" ? v.trim() : v),
  z
    .union([z.number(), z.string().regex(/^\d{1,5}$/, PERSONAL_THRESHOLD_TEXTS.invalid)], {
      error: PERSONAL_THRESHOLD_TEXTS.invalid,
    })
    .transform(Number)
    .pipe(
      z
        .number()
        .int(PERSONAL_THRESHOLD_TEXTS.invalid)
        .min(1, PERSONAL_THRESHOLD_TEXTS.invalid)
        .max(10_000, PERSONAL_THRESHOLD_TEXTS.invalid),
    )
    .optional(),
);

export const commitInputSchema = z.object({
  campaignId: campaignIdSchema,
  /** the saved card (Stripe PaymentMethod id or demo token); required for paid events */
  paymentMethodId: z
    .string()
    .trim()
    .min(1)
    .max(255)
    .regex(/^[A-Za-z0-9_]+$/, "Invalid payment method")
    .optional(),
  /** issue 37: "Save this card for next time" was ticked (kept on file once the commitment is recorded) */
  saveCard: z.boolean().optional(),
  /** crowdfund only: dollars as typed */
  amount: crowdfundAmountSchema.optional(),
  /** issue 21: "only count me if at least N people are in" (N counts the person); empty: no condition */
  minPeople: personalThresholdSchema.optional(),
  /** issue 37: the people this commitment holds, the committer included (1 to the event's M) */
  seats: z.coerce
    .number({ error: SEAT_TEXTS.invalid })
    .int(SEAT_TEXTS.invalid)
    .min(1, SEAT_TEXTS.invalid)
    .max(SEATS_MAX, SEAT_TEXTS.invalid)
    .default(1),
  /** issue 37: a group that does not fit may take the places that open, part of it at a time */
  partialOk: z.boolean({ error: "Invalid choice" }).default(false),
});

/** "Show more" on an event page's commitments: the page after the `offset` already shown. */
export const moreCommitmentsSchema = z.object({
  campaignId: campaignIdSchema,
  offset: offsetSchema,
});
