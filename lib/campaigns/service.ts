import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Viewer } from "@/lib/auth/viewer";
import { canModerate } from "@/lib/campaigns/policy";
import { approvalInputSchema, type ApprovalInput } from "@/lib/campaigns/schema";
import { parseInput } from "@/lib/actions";

/**
 * Moderation (SPEC §4): an admin sets approvalStatus; the change and who made it are recorded in
 * ModerationLog and on the campaign, in one transaction. Non-admins are refused before anything is read.
 */
export async function setApprovalStatus(actor: Viewer | null, input: ApprovalInput) {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (!canModerate(actor)) throw new AppError("FORBIDDEN", "Access denied. Admin privileges required.");
  const { campaignId, approvalStatus } = parseInput(approvalInputSchema, input);
  return db.$transaction(async (tx) => {
    const current = await tx.campaign.findUnique({ where: { id: campaignId }, select: { approvalStatus: true } });
    if (!current) throw new AppError("NOT_FOUND", "Campaign not found");
    const now = new Date();
    const updated = await tx.campaign.update({
      where: { id: campaignId },
      data: { approvalStatus, approvalUpdatedAt: now, approvalUpdatedById: actor.id },
      select: { id: true, approvalStatus: true, approvalUpdatedAt: true, approvalUpdatedById: true },
    });
    await tx.moderationLog.create({
      data: { campaignId, actorId: actor.id, fromStatus: current.approvalStatus, toStatus: approvalStatus, createdAt: now },
    });
    return updated;
  });
}
