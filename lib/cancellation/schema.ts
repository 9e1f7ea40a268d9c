import { z } from "zod";
import { idSchema } from "@/lib/ids";
import { CANCEL_REASON_MAX, CANCEL_TEXTS } from "@/lib/cancellation/texts";

export { CANCEL_REASON_MAX, CANCEL_TEXTS };

export const cancelCampaignSchema = z.object({
  campaignId: idSchema(),
  reason: z
    .string(CANCEL_TEXTS.reasonTooLong)
    .trim()
    .max(CANCEL_REASON_MAX, CANCEL_TEXTS.reasonTooLong)
    .optional()
    .transform((r) => r || null),
});

export const CANCEL_ERROR = "Error cancelling the event. Please try again.";
