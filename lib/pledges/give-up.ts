import "server-only";
import { z } from "zod";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import { canSeeEvent, type Actor } from "@/lib/access/rules";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { isConfirmed, LIVE_PLEDGE, waitlistOpen } from "@/lib/events/lifecycle";
import { emailCampaignSelect } from "@/lib/campaigns/notifications";
import { queueEmail } from "@/lib/email/service";
import { gaveUpEmail } from "@/lib/campaigns/waitlist-emails";
import { releaseSavedCards } from "@/lib/ledger/cards";
import { campaignIdSchema } from "@/lib/pledges/schema";
import { GIVE_UP_TEXTS, WITHDRAW_TEXTS } from "@/lib/access/pledge-policy";

export { GIVE_UP_TEXTS };
import { recordHandover, recordWithdrawal, uncount } from "@/lib/campaigns/places";
import { withPlaces } from "@/lib/campaigns/waitlist";

const giveUpInputSchema = z.object({ campaignId: campaignIdSchema }).strict();

/**
 * "Give up my place" (issue 20): after the tip, a backer who holds a place hands it to the first in
 * line. Under the campaign lock the backer's commitment is withdrawn, the place filled in the same
 * transaction, and the giver linked to whoever took it: a charge already made is refunded only once
 * that person has paid (lib/ledger/refunds refundOwedPledges; if their card fails, the place —
 * and the link — move on to the next in line). Refused when nobody can take the place.
 */
export async function giveUpPlace(actor: Actor, input: unknown): Promise<{ refundPending: boolean }> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { campaignId } = parseInput(giveUpInputSchema, input, { message: ACCESS_TEXTS.campaignNotFound });
  const { result } = await withPlaces(
    campaignId,
    async (tx, now) => {
      const c = await tx.campaign.findUnique({
        where: { id: campaignId },
        select: {
          ...emailCampaignSelect,
          creatorId: true,
          approvalStatus: true,
          status: true,
          depositCents: true,
        },
      });
      if (!c || !canSeeEvent(actor, c)) throw new AppError("NOT_FOUND", ACCESS_TEXTS.campaignNotFound);
      // issue 37: a holder of several seats gives a guest seat up first, their own last
      const pledge = await tx.pledge.findFirst({
        where: { campaignId, userId: actor.id, ...LIVE_PLEDGE },
        orderBy: { guestSlot: "desc" },
        select: {
          id: true,
          amount: true,
          amountCents: true,
          paymentMethodId: true,
          chargeStatus: true,
          user: { select: { email: true, name: true } },
        },
      });
      if (!pledge) throw new AppError("CONFLICT", GIVE_UP_TEXTS.notIn);
      if (!isConfirmed(c.status)) throw new AppError("CONFLICT", GIVE_UP_TEXTS.notTipped);
      if (!waitlistOpen(c, now)) throw new AppError("CONFLICT", GIVE_UP_TEXTS.started);
      const waiting = await tx.pledge.count({
        where: { campaignId, withdrawnAt: null, NOT: { waitlistedAt: null }, chargeStatus: "none" },
      });
      if (waiting === 0) throw new AppError("CONFLICT", GIVE_UP_TEXTS.nobodyWaiting);
      if (!(await recordWithdrawal(tx, pledge.id, now, { gaveUp: true })))
        throw new AppError("CONFLICT", WITHDRAW_TEXTS.processing);
      await uncount(tx, campaignId, c, pledge);
      // the payment refunded once the taker has paid: the ticket and a show-up deposit with it (issue 36)
      const charged = pledge.chargeStatus === "succeeded" ? pledge.amountCents + c.depositCents : 0;
      await queueEmail(
        tx,
        gaveUpEmail(
          c,
          { userId: actor.id, email: pledge.user.email, name: pledge.user.name },
          pledge.id,
          charged,
        ),
      );
      return { pledgeId: pledge.id, refundPending: charged > 0 };
    },
    async (tx, given, filled) => {
      // the count above was taken under the same lock, so someone always takes the place
      if (!filled.promoted[0]) throw new AppError("CONFLICT", GIVE_UP_TEXTS.nobodyWaiting);
      await recordHandover(tx, given.pledgeId, filled.promoted[0]);
    },
  );
  if (!result) throw new AppError("CONFLICT", GIVE_UP_TEXTS.notIn);
  await releaseSavedCards(1, result.pledgeId).catch(() => 0); // its sweeper finishes otherwise
  return { refundPending: result.refundPending };
}
