import { z } from "zod";

/**
 * Bodies of POST /api/check-and-charge and POST /api/charge-attendees. SPEC §7 clients also send
 * goal, price, pledge lists and status; those are ignored (stripped) because the server reads
 * everything from the database (DESIGN §1 "charging").
 */
const campaignId = z
  .string({ error: "campaignId is required" })
  .trim()
  .min(1, "campaignId is required")
  .max(64, "campaignId is too long");

export const checkAndChargeSchema = z.object({ campaignId });
export const chargeAttendeesSchema = z.object({ campaignId });

/** The recovery page (/pledges/{id}/pay): pay a failed charge with a newly saved card. */
export const payPledgeSchema = z.object({
  pledgeId: z.string().trim().min(1, "pledgeId is required").max(64),
  paymentMethodId: z.string().trim().min(1, "Please save a card first.").max(255),
});
export const confirmPledgePaymentSchema = z.object({
  pledgeId: z.string().trim().min(1, "pledgeId is required").max(64),
});
