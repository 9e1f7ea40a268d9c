import { z } from "zod";

/* Moderation */
export const APPROVAL_STATUSES = ["pending", "approved", "rejected"] as const;
export const approvalInputSchema = z.object({
  campaignId: z.string().trim().min(1).max(40),
  approvalStatus: z.enum(["approved", "rejected"]),
});
export type ApprovalInput = z.input<typeof approvalInputSchema>;
