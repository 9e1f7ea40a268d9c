import { z } from "zod";
import { idSchema } from "@/lib/ids";

export const cancelCampaignSchema = z.object({
  campaignId: idSchema(),
});

export const CANCEL_ERROR = "Error cancelling the event. Please try again.";
