import "server-only";
import { db } from "@/lib/db";
import { LIVE_PLEDGE } from "@/lib/events/lifecycle";
import { ACTION_REFUSED, offers } from "@/lib/events/actions";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import { kickEmailSender, queueEmails } from "@/lib/email/service";
import { organizerUpdateEmail } from "@/lib/campaigns/emails";
import { postUpdateSchema, UPDATE_LIMIT_REACHED, UPDATES_PER_DAY } from "@/lib/updates/schema";
import type { Actor } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";

/**
 * The organizer posts an update: stored (shown on the event page) and emailed to every committer
 * who has not unsubscribed, in one transaction. At most UPDATES_PER_DAY per event in any 24 hours,
 * counted under the event's row lock so concurrent posts cannot exceed it.
 */
export async function postUpdate(
  viewer: Actor,
  input: unknown,
  now = new Date(),
): Promise<{ id: string; campaignId: string; emailed: number }> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { campaignId, text } = parseInput(postUpdateSchema, input);
  const result = await db.$transaction(async (tx) => {
    const campaign = await loadCampaignFor(viewer, campaignId, "update", {
      tx,
      lock: true,
      select: { title: true, status: true, deadline: true, approvalStatus: true },
    });
    if (!offers(campaign, "postUpdate", now)) throw new AppError("CONFLICT", ACTION_REFUSED.postUpdate);
    const recent = await tx.campaignUpdate.count({
      where: { campaignId, createdAt: { gt: new Date(now.getTime() - 24 * 3600_000) } },
    });
    if (recent >= UPDATES_PER_DAY) throw new AppError("RATE_LIMITED", UPDATE_LIMIT_REACHED);
    const update = await tx.campaignUpdate.create({
      data: { campaignId, authorId: viewer.id, text, createdAt: now },
      select: { id: true },
    });
    const pledges = await tx.pledge.findMany({
      where: { campaignId, ...LIVE_PLEDGE, user: { emailOptOut: false } },
      select: { userId: true, user: { select: { email: true, name: true } } },
    });
    const emailed = await queueEmails(
      tx,
      pledges.map((p) =>
        organizerUpdateEmail(
          campaign,
          { userId: p.userId, email: p.user.email, name: p.user.name },
          update.id,
          text,
        ),
      ),
    );
    return { id: update.id, campaignId, emailed };
  });
  if (result.emailed > 0) await kickEmailSender();
  return result;
}
