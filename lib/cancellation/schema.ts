import { z } from "zod";
import { idSchema } from "@/lib/ids";

/** Issue 34: an optional reason for cancelling, shown to backers (as long as an admin's reject reason). */
export const CANCEL_REASON_MAX = 500;

export const CANCEL_TEXTS = {
  reasonTooLong: `The reason can be at most ${CANCEL_REASON_MAX} characters.`,
  reasonLabel: "Reason (optional, shown to backers)",
} as const;

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
