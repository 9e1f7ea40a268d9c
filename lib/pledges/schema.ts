import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { idSchema, offsetSchema } from "@/lib/ids";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { dollarsToCents } from "@/lib/format";
import { CROWDFUND_MIN_CENTS } from "@/lib/campaigns/lifecycle";

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
  /** crowdfund only: dollars as typed */
  amount: crowdfundAmountSchema.optional(),
});

/** "Show more" on an event page's commitments: the page after the `offset` already shown. */
export const moreCommitmentsSchema = z.object({
  campaignId: campaignIdSchema,
  offset: offsetSchema,
});
