import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import type { Actor } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { idSchema } from "@/lib/ids";
import { isCollecting, isCrowdfund, isFreeEvent, MEMBER_PLEDGE } from "@/lib/events/lifecycle";
import { setConfirmed } from "@/lib/events/counters";
import { goAhead as goAheadWith } from "@/lib/events/status";
import { goAheadFrom } from "@/lib/campaigns/thresholds";
import { confirmFreePledges } from "@/lib/ledger/pledge-state";
import { requestCharging } from "@/lib/ledger/queue";
import { emailCampaignSelect } from "@/lib/campaigns/notifications";
import { kickEmailSender, queueEmails } from "@/lib/email/service";
import { goAheadEmail } from "@/lib/campaigns/condition-emails";
import { eachCents } from "@/lib/events/money-sentences";

/**
 * The early go-ahead (issue 21, DESIGN §1 "early go-ahead"): an organizer who said at creation that
 * the event may go ahead from 80% of its goal confirms it once, from there and before the deadline,
 * naming the count they saw. The members are then charged as at a tip (the charging job), every
 * member is told why, and the event page says the organizer chose it. It is not "threshold met"
 * for `immediate` revelation (lib/events/lifecycle thresholdMet).
 */

export const GO_AHEAD_TEXTS = {
  notOffered: "This event did not offer an early go-ahead when it was created.",
  crowdfund: "A crowdfund cannot go ahead early.",
  notCollecting: "This event is no longer collecting commitments.",
  notApproved: "This event is not approved, so it cannot go ahead.",
  tooFew: (from: number) => `The organizer can go ahead from ${from} people (80% of the goal).`,
  countChanged: (now: number) =>
    `The count changed to ${now} while you were deciding. Please check and confirm again.`,
  done: (n: number) => `You went ahead with ${n} people. They are being charged now.`,
} as const;

const goAheadInput = z
  .object({
    campaignId: idSchema(ACCESS_TEXTS.manageDenied),
    /** the number of members the organizer confirmed going ahead with */
    members: z.number().int().min(1).max(10_000),
  })
  .strict();

export async function goAhead(actor: Actor, input: unknown, now = new Date()): Promise<{ members: number }> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { campaignId, members } = parseInput(goAheadInput, input, { message: ACCESS_TEXTS.manageDenied });
  const done = await db.$transaction(async (tx) => {
    const c = await loadCampaignFor(actor, campaignId, "manage", {
      tx,
      lock: true,
      select: { ...emailCampaignSelect, status: true, earlyGoAhead: true, pactType: true },
    });
    if (!c.earlyGoAhead) throw new AppError("CONFLICT", GO_AHEAD_TEXTS.notOffered);
    if (c.approvalStatus !== "approved") throw new AppError("CONFLICT", GO_AHEAD_TEXTS.notApproved);
    if (isCrowdfund(c)) throw new AppError("CONFLICT", GO_AHEAD_TEXTS.crowdfund);
    if (!isCollecting(c, now)) throw new AppError("CONFLICT", GO_AHEAD_TEXTS.notCollecting);
    if (c.committedCount < goAheadFrom(c))
      throw new AppError("CONFLICT", GO_AHEAD_TEXTS.tooFew(goAheadFrom(c)));
    if (c.committedCount !== members)
      throw new AppError("CONFLICT", GO_AHEAD_TEXTS.countChanged(c.committedCount));
    const free = isFreeEvent(c);
    await goAheadWith(tx, campaignId, now, members, free);
    if (free) {
      const total = await confirmFreePledges(tx, campaignId, now);
      await setConfirmed(tx, campaignId, total);
    }
    const audience = await tx.pledge.findMany({
      where: { campaignId, ...MEMBER_PLEDGE },
      select: { userId: true, user: { select: { email: true, name: true } } },
    });
    await queueEmails(
      tx,
      audience.map((p) =>
        goAheadEmail(
          c,
          { userId: p.userId, email: p.user.email, name: p.user.name },
          members,
          // the ticket and the show-up deposit charged with it (issue 36)
          eachCents(c),
        ),
      ),
    );
    return { members, free };
  });
  if (!done.free) {
    try {
      await requestCharging(campaignId);
    } catch (err) {
      console.warn(`[go-ahead] could not queue charging for ${campaignId}: ${(err as Error).message}`);
    }
  }
  void kickEmailSender();
  return { members: done.members };
}
