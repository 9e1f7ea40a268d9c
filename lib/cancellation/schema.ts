import { z } from "zod";

export const cancelCampaignSchema = z.object({
  campaignId: z.string({ error: "Invalid id." }).regex(/^[a-z0-9]{10,40}$/i, "Invalid id."),
});
export type CancelCampaignInput = z.infer<typeof cancelCampaignSchema>;

export const CANCEL_ERROR = "Error cancelling the event. Please try again.";
