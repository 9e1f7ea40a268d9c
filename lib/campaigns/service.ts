import "server-only";
import { queueModerationEmail } from "@/lib/campaigns/notifications";
import { kickEmailSender } from "@/lib/email/service";
import { db, Prisma } from "@/lib/db";
import { withEvents } from "@/lib/events/lock";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import type { Viewer } from "@/lib/access/viewer";
import { approvalInputSchema, createCampaignSchema, type ApprovalInput } from "@/lib/campaigns/schema";
import { parseInput } from "@/lib/actions";
import { consume, minutesText } from "@/lib/rate-limit/service";
import { canModerate } from "@/lib/access/rules";
import { CONFIRMED_STATUSES, isPaidEvent, isRejectable } from "@/lib/events/lifecycle";
import { canBePaid, PAYABLE_TEXTS } from "@/lib/access/payable";
import { REJECT_TEXT } from "@/lib/campaigns/texts";
import { eventHasMoneySql, pledgeHasMoneySql } from "@/lib/campaigns/admin";

/** Abuse guard: events one user may create per hour (real organizers create a handful). */
export const CREATE_LIMIT = { limit: 20, windowMs: 3600_000 } as const;

/**
 * Moderation (SPEC §4): an admin sets approvalStatus; the change and who made it are recorded in
 * ModerationLog and on the campaign, in one transaction. Non-admins are refused before anything is read.
 */
export async function setApprovalStatus(actor: Viewer | null, input: ApprovalInput) {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (!canModerate(actor)) throw new AppError("FORBIDDEN", "Access denied. Admin privileges required.");
  const { campaignId, approvalStatus, reason } = parseInput(approvalInputSchema, input);
  const rejecting = approvalStatus === "rejected";
  const result = await db.$transaction(async (tx) => {
    const current = await tx.campaign.findUnique({
      where: { id: campaignId },
      select: {
        approvalStatus: true,
        status: true,
        creatorId: true,
        ticketPriceCents: true,
        pactType: true,
        depositCents: true,
      },
    });
    if (!current) throw new AppError("NOT_FOUND", "Campaign not found");
    if (rejecting && !isRejectable(current.status)) throw new AppError("CONFLICT", REJECT_TEXT.tipped);
    // Issue 23: a paid event goes live only once its organizer can be paid.
    if (
      !rejecting &&
      current.approvalStatus !== "approved" &&
      isPaidEvent(current) &&
      !(await canBePaid(tx, current.creatorId))
    )
      throw new AppError("CONFLICT", PAYABLE_TEXTS.notReady);
    const now = new Date();
    // A rejection holds only while the event has not tipped: checked again in the write itself, so
    // a commit that tips it meanwhile wins and the rejection is refused.
    const { count } = await tx.campaign.updateMany({
      where: { id: campaignId, ...(rejecting ? { status: { notIn: [...CONFIRMED_STATUSES] } } : {}) },
      data: { approvalStatus, approvalUpdatedAt: now, approvalUpdatedById: actor.id },
    });
    if (count === 0) throw new AppError("CONFLICT", REJECT_TEXT.tipped);
    const log = await tx.moderationLog.create({
      data: {
        campaignId,
        actorId: actor.id,
        fromStatus: current.approvalStatus,
        toStatus: approvalStatus,
        reason: rejecting ? reason : null,
        createdAt: now,
      },
      select: { id: true },
    });
    // The organizer's approved/rejected email (with the reason), in the outbox in this same transaction.
    await queueModerationEmail(tx, log.id);
    return { id: campaignId, approvalStatus, approvalUpdatedAt: now, approvalUpdatedById: actor.id };
  });
  void kickEmailSender();
  return result;
}

/**
 * Creates an event for the signed-in `creator` (SPEC §5): validated by the same schema as the form,
 * stored pending approval with the price in cents. When it was started from a draft the creator
 * owns, that draft is removed in the same transaction.
 */
export async function createCampaign(
  creator: Viewer | null,
  input: unknown,
  opts: { draftId?: string | null; now?: () => number } = {},
) {
  if (!creator) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const data = parseInput(createCampaignSchema(opts.now), input);
  await consume(
    { key: `create-campaign:${creator.id}`, ...CREATE_LIMIT },
    (ms) => `You have created many events recently. Please try again in ${minutesText(ms)}.`,
  );
  return db.$transaction(async (tx) => {
    const campaign = await tx.campaign.create({
      data: {
        ...data,
        creatorId: creator.id,
        creatorEmail: creator.email,
        status: "pending",
        approvalStatus: "pending",
        // issue 23: the fee terms the organizer creates the event under
        platformFeeBps: env().PLATFORM_FEE_BPS,
        platformFeeFixedCents: env().PLATFORM_FEE_FIXED_CENTS,
      },
      select: { id: true },
    });
    if (opts.draftId)
      await tx.campaignDraft.deleteMany({ where: { id: opts.draftId, creatorId: creator.id } });
    return campaign;
  });
}

/** What "Delete test events" did: how many it deleted, and the events it kept (money on them). */
export type DeleteTestResult = { deleted: number; kept: { id: string; title: string }[] };

/**
 * Deletes every test event with its pledges and comments (and, by cascade, moderation entries,
 * updates and its cover) — except an event with money on it (issue 31: a charge made or tried, a
 * refund, a saved card not yet released, or a payout movement; eventHasMoneySql), which is kept and
 * named: it can be cancelled with refunds instead. Admins only.
 *
 * Race-safe: the test events are locked (FOR UPDATE) before they are looked at, so no commitment or
 * payout can be added meanwhile (a new row's foreign key waits for the lock, and so does every pledge
 * write, which touches its event's row: migration visitor_cache_versions); the pledges of those that
 * look clean are locked too and looked at again, so no card is saved or charge claimed on them between
 * the check and the delete even without that trigger. The pledges deleted are money-free ones only, and
 * the foreign keys refuse to delete an event that still has a pledge or a payout: whatever slipped
 * through would roll it all back.
 */
export async function deleteTestCampaigns(actor: Viewer | null): Promise<DeleteTestResult> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (!canModerate(actor)) throw new AppError("FORBIDDEN", "Access denied. Admin privileges required.");
  const testEvents = {
    read: Prisma.sql`"id", "title"`,
    where: Prisma.sql`"isTest"`,
    orderBy: Prisma.sql`"createdAt" DESC, "id" DESC`,
  };
  return db.$transaction((tx) =>
    withEvents<DeleteTestResult, { id: string; title: string }>(tx, testEvents, async (events) => {
      if (events.length === 0) return { deleted: 0, kept: [] };
      const withMoney = async (ids: string[]) =>
        new Set(
          (
            await tx.$queryRaw<{ id: string }[]>`
            SELECT c."id" FROM "Campaign" c WHERE c."id" = ANY(${ids}::text[]) AND ${eventHasMoneySql("c")}`
          ).map((r) => r.id),
        );
      const first = await withMoney(events.map((e) => e.id));
      let clean = events.map((e) => e.id).filter((id) => !first.has(id));
      if (clean.length > 0) {
        await tx.$queryRaw`SELECT "id" FROM "Pledge" WHERE "campaignId" = ANY(${clean}::text[]) ORDER BY "id" FOR UPDATE`;
        const since = await withMoney(clean);
        clean = clean.filter((id) => !since.has(id));
      }
      let deleted = 0;
      if (clean.length > 0) {
        await tx.comment.deleteMany({ where: { campaignId: { in: clean } } });
        await tx.$executeRaw`
        DELETE FROM "Pledge" p WHERE p."campaignId" = ANY(${clean}::text[]) AND NOT ${pledgeHasMoneySql("p")}`;
        ({ count: deleted } = await tx.campaign.deleteMany({ where: { id: { in: clean }, isTest: true } }));
      }
      const gone = new Set(clean);
      return { deleted, kept: events.filter((e) => !gone.has(e.id)) };
    }),
  );
}
