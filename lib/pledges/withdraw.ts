import "server-only";
import { withEvent } from "@/lib/events/lock";
import { z } from "zod";
import { db, type Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import type { Actor } from "@/lib/access/rules";
import { canSeeEvent } from "@/lib/access/rules";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { campaignIdSchema } from "@/lib/pledges/schema";
import { WITHDRAW_TEXTS, withdrawRule } from "@/lib/access/pledge-policy";
import {
  isPaidEvent,
  LIVE_PLEDGE,
  progress,
  STANDING_PLEDGE,
  waitlistOpen,
  CALLED_OFF_STATUSES,
  inStatuses,
} from "@/lib/events/lifecycle";
import { resetWaitingCard } from "@/lib/ledger/pledge-state";
import { recordWithdrawal, uncount } from "@/lib/campaigns/places";
import { afterPlacesFilled, fillOpenPlaces, type Filled } from "@/lib/campaigns/waitlist";
import { oneAtATime } from "@/lib/campaigns/commit-slots";
import { emailCampaignSelect } from "@/lib/campaigns/notifications";
import { kickEmailSender, queueEmail } from "@/lib/email/service";
import { withdrawnEmail } from "@/lib/campaigns/emails";
import { refundOwedPledges } from "@/lib/ledger/refunds";
import { detachIfUnused, releaseSavedCards } from "@/lib/ledger/cards";
import type { CardSummary, PaymentGateway } from "@/lib/payments/types";
import { getGateway } from "@/lib/payments/gateway";
import { SEAT_TEXTS } from "@/lib/events/seats";
import { groupSeatsOf, seatsToWithdraw } from "@/lib/pledges/seats";
import { returnClaimedSeat } from "@/lib/pledges/friends";

const withdrawInputSchema = z
  .object({
    campaignId: campaignIdSchema,
    /** issue 37: drop this many of the holder's guest seats, keeping the commitment; none: withdraw it all */
    dropSeats: z.number({ error: SEAT_TEXTS.invalid }).int().min(1, SEAT_TEXTS.invalid).max(9).optional(),
  })
  .strict();
const changeCardInputSchema = z
  .object({ campaignId: campaignIdSchema, paymentMethodId: z.string().trim().min(1).max(255) })
  .strict();

export type WithdrawResult = {
  campaignId: string;
  /** what counts toward the goal after the withdrawal (attendees, or dollars for a crowdfund) */
  committedCount: number;
  goal: number;
  /** a charge given back (a withdrawal after a date or place change), in cents; 0 when none */
  refundCents: number;
  /** issue 37: the guest seats dropped (the commitment kept); 0 for a withdrawal */
  droppedSeats: number;
};

/** Under the event's lock: the event and the actor's standing commitment, if it may be withdrawn now. */
async function withdrawable(
  tx: Prisma.TransactionClient,
  actor: NonNullable<Actor>,
  campaignId: string,
  now: Date,
) {
  const c = await tx.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: {
      ...emailCampaignSelect,
      creatorId: true,
      approvalStatus: true,
      status: true,
      deadline: true,
      raisedCents: true,
      changedAfterTipAt: true,
      changeWithdrawUntil: true,
    },
  });
  if (!canSeeEvent(actor, c)) throw new AppError("NOT_FOUND", ACCESS_TEXTS.campaignNotFound);
  const pledge = await tx.pledge.findFirst({
    where: { campaignId, userId: actor.id, guestSlot: 0, ...STANDING_PLEDGE },
    select: {
      id: true,
      createdAt: true,
      amount: true,
      amountCents: true,
      paymentMethodId: true,
      chargeStatus: true,
      waitlistedAt: true,
      minPeople: true,
      memberSince: true,
      standing: true,
      groupId: true,
      guestSlot: true,
      user: { select: { email: true, name: true } },
    },
  });
  if (!pledge) throw new AppError("CONFLICT", WITHDRAW_TEXTS.notCommitted);
  // Leaving the waitlist (issue 20), or a condition that does not hold yet (issue 21), is open
  // at any time: nothing was charged.
  const uncounted =
    pledge.standing === "waiting" ||
    (pledge.standing === "conditional" && !inStatuses(CALLED_OFF_STATUSES, c.status));
  const rule = uncounted ? ({ kind: "open" } as const) : withdrawRule(c, pledge, now);
  // the caller throws it unless what goes is only guest seats still waiting (issue 37: open at any time)
  const refusal =
    rule.kind === "binding"
      ? new AppError("CONFLICT", WITHDRAW_TEXTS.binding)
      : rule.kind === "over"
        ? new AppError("CONFLICT", WITHDRAW_TEXTS.over)
        : null;
  return { c, pledge, refusal };
}

/** The seats that go (lib/pledges/seats), each withdrawn and uncounted; refused while a charge of one is in flight. */
async function withdrawSeats(
  tx: Prisma.TransactionClient,
  c: Awaited<ReturnType<typeof withdrawable>>["c"],
  holderId: string,
  own: Awaited<ReturnType<typeof withdrawable>>["pledge"],
  dropSeats: number | undefined,
  refusal: AppError | null,
  now: Date,
) {
  const seats = seatsToWithdraw(await groupSeatsOf(tx, holderId, own), dropSeats);
  // a guest seat still waiting holds no place and was never charged: it may be dropped at any time
  if (refusal && !(dropSeats && seats.every((s) => s.waitlistedAt))) throw refusal;
  for (const seat of seats) {
    if (!(await recordWithdrawal(tx, seat.id, now)))
      throw new AppError("CONFLICT", WITHDRAW_TEXTS.processing);
    await uncount(tx, c.id, c, seat);
  }
  return seats;
}

/**
 * Under the event's lock, the seats that leave (issue 37): a claimed seat given up goes back to its
 * holder (not withdrawn, nothing to uncount); else the holder's seats go with the commitment, or only
 * the guest seats dropped (withdrawSeats).
 */
async function takeSeats(
  tx: Prisma.TransactionClient,
  holderId: string,
  c: Awaited<ReturnType<typeof withdrawable>>["c"],
  pledge: Awaited<ReturnType<typeof withdrawable>>["pledge"],
  dropSeats: number | undefined,
  refusal: AppError | null,
  now: Date,
) {
  // the friend may give the seat back when they may withdraw (the same rule); else withdrawSeats refuses
  if (!dropSeats && !refusal && (await returnClaimedSeat(tx, pledge))) return { returned: true, seats: [] };
  return { returned: false, seats: await withdrawSeats(tx, c, holderId, pledge, dropSeats, refusal, now) };
}

/**
 * The backer takes their commitment back (DESIGN §1 "withdrawing"). Under the campaign row lock —
 * the lock every commit takes — so it serialises with the commit that would tip the event: a
 * withdrawal either lands before the tip (and the tipping commit counts without it) or finds the
 * event tipped and is refused. The pledge row stays (withdrawn), its attendee number is never
 * reused, the counters drop by exactly what the commit added, and the backer is emailed in the same
 * transaction. After commit: a charge made before a change after the tip is refunded, and the saved
 * card is released unless another live pledge uses it (both resumable by their sweepers).
 */
export async function withdrawCommitment(
  actor: Actor,
  input: unknown,
  opts: { now?: Date; gateway?: PaymentGateway } = {},
): Promise<WithdrawResult> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { campaignId, dropSeats } = parseInput(withdrawInputSchema, input, {
    message: ACCESS_TEXTS.campaignNotFound,
  });

  const done = await oneAtATime(campaignId, () =>
    db.$transaction(
      async (tx) => {
        const now = opts.now ?? new Date();
        return withEvent(tx, campaignId, async (locked) => {
          if (!locked) throw new AppError("NOT_FOUND", ACCESS_TEXTS.campaignNotFound);
          const { c, pledge, refusal } = await withdrawable(tx, actor, campaignId, now);
          const { returned, seats } = await takeSeats(tx, actor.id, c, pledge, dropSeats, refusal, now);
          // the places they held go to the first in line (issue 20); the members are recounted (issue 21)
          const filled = seats.every((s) => s.waitlistedAt)
            ? null
            : await fillOpenPlaces(tx, campaignId, now);
          const after = await tx.campaign.findUniqueOrThrow({
            where: { id: campaignId },
            select: { committedCount: true, raisedCents: true },
          });
          const refundCents = seats.reduce(
            (sum, seat) => sum + (seat.chargeStatus === "succeeded" ? seat.amountCents : 0),
            0,
          );
          if (!dropSeats && !returned)
            await queueEmail(
              tx,
              withdrawnEmail(
                c,
                { userId: actor.id, email: pledge.user.email, name: pledge.user.name },
                pledge.id,
                refundCents,
              ),
            );
          const counts = progress({
            ...c,
            committedCount: after.committedCount,
            raisedCents: after.raisedCents,
          });
          return {
            pledgeId: pledge.id,
            committedCount: counts.value,
            goal: c.goal,
            refundCents,
            filled,
            dropped: dropSeats ? seats.length : 0,
          };
        });
      },
      { maxWait: 60_000, timeout: 60_000 },
    ),
  );

  if (done.filled) await afterPlacesFilled(campaignId, done.filled);
  // Money and card after the commit, each idempotent and finished by its sweeper if this fails.
  try {
    if (done.refundCents > 0) await refundOwedPledges(campaignId, opts.gateway);
    await releaseSavedCards(1, done.pledgeId);
  } catch (err) {
    console.warn(`[withdraw] refund or card release of ${done.pledgeId} deferred: ${(err as Error).message}`);
  }
  void kickEmailSender();
  return {
    campaignId,
    committedCount: done.committedCount,
    goal: done.goal,
    refundCents: done.refundCents,
    droppedSeats: done.dropped,
  };
}

export const CHANGE_CARD_TEXTS = {
  notPaid: "This event has nothing to charge, so there is no card to change.",
  done: "Your card is updated.",
  /** issue 37: a named friend's claimed seat is paid by the holder's card, which is not the friend's to change */
  friendSeat: "The person who invited you pays for your seat, so there is no card of yours to change.",
} as const;

/** Under the event's lock: the new card on the actor's commitment, while a change is allowed. */
async function swapCardLocked(
  tx: Prisma.TransactionClient,
  actor: NonNullable<Actor>,
  campaignId: string,
  card: CardSummary,
  now: Date,
): Promise<{ pledgeId: string; paymentMethodId: string | null; filled: Filled | null }> {
  const c = await tx.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: {
      creatorId: true,
      approvalStatus: true,
      status: true,
      deadline: true,
      ticketPriceCents: true,
      depositCents: true,
      pactType: true,
      changedAfterTipAt: true,
      changeWithdrawUntil: true,
      startsAt: true,
    },
  });
  if (!canSeeEvent(actor, c)) throw new AppError("NOT_FOUND", ACCESS_TEXTS.campaignNotFound);
  if (!isPaidEvent(c)) throw new AppError("CONFLICT", CHANGE_CARD_TEXTS.notPaid);
  const pledge = await tx.pledge.findFirst({
    where: { campaignId, userId: actor.id, guestSlot: 0, ...STANDING_PLEDGE },
    select: {
      id: true,
      groupId: true,
      createdAt: true,
      paymentMethodId: true,
      waitlistedAt: true,
      minPeople: true,
      memberSince: true,
      standing: true,
    },
  });
  if (!pledge) throw new AppError("CONFLICT", WITHDRAW_TEXTS.notCommitted);
  if (pledge.groupId !== null && pledge.groupId !== pledge.id)
    throw new AppError("CONFLICT", CHANGE_CARD_TEXTS.friendSeat);
  if (pledge.standing === "waiting") {
    // Waiting (issue 20): a new card any time before the start; after a failed promotion charge
    // it puts the commitment back in line at its place, and into a place if one is open.
    if (!waitlistOpen(c, now)) throw new AppError("CONFLICT", WITHDRAW_TEXTS.over);
    if (!(await resetWaitingCard(tx, pledge.id, card)))
      throw new AppError("CONFLICT", WITHDRAW_TEXTS.processing);
    const filled = await fillOpenPlaces(tx, campaignId, now);
    return { pledgeId: pledge.id, paymentMethodId: pledge.paymentMethodId, filled };
  }
  // a condition that does not hold yet (issue 21) is not charged: its card may change meanwhile
  const uncounted = pledge.standing === "conditional" && !inStatuses(CALLED_OFF_STATUSES, c.status);
  const rule = uncounted ? ({ kind: "open" } as const) : withdrawRule(c, pledge, now);
  if (rule.kind !== "open")
    throw new AppError("CONFLICT", rule.kind === "over" ? WITHDRAW_TEXTS.over : WITHDRAW_TEXTS.binding);
  const { count } = await tx.pledge.updateMany({
    where: { id: pledge.id, chargeStatus: "none", ...LIVE_PLEDGE },
    data: { paymentMethodId: card.paymentMethodId, cardBrand: card.brand, cardLast4: card.last4 },
  });
  if (count === 0) throw new AppError("CONFLICT", WITHDRAW_TEXTS.processing);
  return { pledgeId: pledge.id, paymentMethodId: pledge.paymentMethodId, filled: null };
}

/**
 * The backer replaces the card of their commitment before the tip (issue 18), with a card saved
 * through the same "save a card" step as the commit. The provider confirms the card belongs to the
 * backer before anything is written; the write happens under the campaign lock, only while
 * withdrawing would be allowed (after the tip the card is being charged). The old card is released
 * unless another live pledge still uses it.
 */
export async function changeCommitmentCard(
  actor: Actor,
  input: unknown,
  opts: { now?: Date; gateway?: PaymentGateway } = {},
): Promise<{ brand: string; last4: string }> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { campaignId, paymentMethodId } = parseInput(changeCardInputSchema, input, {
    message: ACCESS_TEXTS.campaignNotFound,
  });
  const gateway = opts.gateway ?? getGateway();
  const own = await db.pledge.findFirst({
    where: { campaignId, userId: actor.id, guestSlot: 0, ...STANDING_PLEDGE },
    select: { id: true, groupId: true },
  });
  if (!own) throw new AppError("CONFLICT", WITHDRAW_TEXTS.notCommitted);
  if (own.groupId !== null && own.groupId !== own.id)
    throw new AppError("CONFLICT", CHANGE_CARD_TEXTS.friendSeat);
  // the card must be this backer's (the gateway refuses anyone else's)
  const card = await gateway.getCard(actor, paymentMethodId);

  const old = await oneAtATime(campaignId, () =>
    db.$transaction(async (tx) => {
      const now = opts.now ?? new Date();
      return withEvent(tx, campaignId, () => swapCardLocked(tx, actor, campaignId, card, now));
    }),
  );
  if (old.filled) await afterPlacesFilled(campaignId, old.filled);

  // The old card: detached (Stripe) unless another live pledge still uses it; a failure is not the backer's problem.
  if (old.paymentMethodId && old.paymentMethodId !== card.paymentMethodId)
    await detachIfUnused(old.paymentMethodId, old.pledgeId, gateway).catch(() => false);
  return { brand: card.brand, last4: card.last4 };
}
