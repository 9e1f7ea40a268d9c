import "server-only";
import { db, type Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Actor } from "@/lib/access/rules";
import { canManageEvent } from "@/lib/access/rules";
import { RESUBMIT_MAX, RESUBMIT_TEXTS } from "@/lib/campaigns/texts";

export { RESUBMIT_MAX, RESUBMIT_TEXTS };

/**
 * Issue 34, new to SPEC §4's moderation (docs/decisions/one-money-figure.md): a rejected event shows
 * its organizer the admin's reason (the ModerationLog), and its organizer may edit it and resubmit
 * it — rejected → pending again — at most RESUBMIT_MAX times. The edit goes through the one edit
 * path (lib/campaigns/edit.ts updateCampaign, `resubmit`); this file is the rule and the log.
 */
export type Rejection = { reason: string | null; at: string; resubmitsLeft: number };

/** A rejected event's reason, for its organizer only (null for anyone else, or when not rejected). */
export async function rejectionOf(
  event: { id: string; creatorId: string; approvalStatus: string; resubmitCount: number },
  actor: Actor,
): Promise<Rejection | null> {
  if (event.approvalStatus !== "rejected" || !canManageEvent(actor, event)) return null;
  const log = await db.moderationLog.findFirst({
    where: { campaignId: event.id, toStatus: "rejected" },
    orderBy: { createdAt: "desc" },
    select: { reason: true, createdAt: true },
  });
  return {
    reason: log?.reason ?? null,
    at: (log?.createdAt ?? new Date()).toISOString(),
    resubmitsLeft: Math.max(0, RESUBMIT_MAX - event.resubmitCount),
  };
}

/**
 * rejected → pending, in the edit's transaction (the event row locked by it): counted, and logged as
 * the organizer's move. Refused with a clear message when the event is not rejected or was
 * resubmitted RESUBMIT_MAX times; the whole edit is then rolled back with it.
 */
export async function resubmitIn(
  tx: Prisma.TransactionClient,
  campaignId: string,
  actorId: string,
  now: Date,
) {
  const { count } = await tx.campaign.updateMany({
    where: { id: campaignId, approvalStatus: "rejected", resubmitCount: { lt: RESUBMIT_MAX } },
    data: {
      approvalStatus: "pending",
      approvalUpdatedAt: now,
      approvalUpdatedById: actorId,
      resubmitCount: { increment: 1 },
    },
  });
  if (count === 0) {
    const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: { approvalStatus: true } });
    throw new AppError(
      "CONFLICT",
      c?.approvalStatus === "rejected" ? RESUBMIT_TEXTS.exhausted : RESUBMIT_TEXTS.notRejected,
    );
  }
  await tx.moderationLog.create({
    data: { campaignId, actorId, fromStatus: "rejected", toStatus: "pending", reason: null },
  });
}
