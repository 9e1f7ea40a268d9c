import { z } from "zod";
import { idSchema } from "@/lib/ids";

export const cancelCampaignSchema = z.object({
  campaignId: idSchema(),
});
export type CancelCampaignInput = z.infer<typeof cancelCampaignSchema>;

export const CANCEL_ERROR = "Error cancelling the event. Please try again.";
