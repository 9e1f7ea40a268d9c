import "server-only";
import { resubmitIn } from "@/lib/campaigns/resubmit";
import { canBePaid } from "@/lib/access/payable";
import "@/lib/zod";
import { z } from "zod";
import { db, type Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Actor } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";
import { isCampaignId } from "@/lib/ids";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { parseInput } from "@/lib/actions";
import { editShape, textColumns } from "@/lib/campaigns/schema";
import {
  CAPACITY_TEXTS,
  readRefundBonus,
  readTimesInZone,
  timeOrderProblem,
  whenWhere,
} from "@/lib/campaigns/fields";
import {
  isCollecting,
  isConfirmed,
  isPaidEvent,
  STANDING_PLEDGE,
  type PactKind,
} from "@/lib/events/lifecycle";
import { groupsRefusal, SEAT_TEXTS } from "@/lib/events/seats";
import { ACTION_REFUSED, offers } from "@/lib/events/actions";
import { changeWithdrawUntil } from "@/lib/access/pledge-policy";
import { DEADLINE_EXTENSION_MAX_DAYS, DEADLINE_MAX_MS, deadlineLimits } from "@/lib/campaigns/limits";
import { REFUND_BONUS_TEXTS } from "@/lib/campaigns/texts";
import { DEPOSIT_TEXTS, depositFormValues, readDeposit } from "@/lib/campaigns/deposit-fields";
import { formatInZone } from "@/lib/campaigns/event-time";
import { whenWhereSelect } from "@/lib/campaigns/place";
import { emailCampaignSelect } from "@/lib/campaigns/notifications";
import { kickEmailSender, queueEmails } from "@/lib/email/service";
import { deadlineExtendedEmail, eventChangedEmail } from "@/lib/campaigns/edit-emails";
import { afterPlacesFilled, fillOpenPlaces, type Filled } from "@/lib/campaigns/waitlist";

/**
 * Editing an event (issue 17 item 2). The organizer may change the words, the place and the times
 * at any time; the deadline only while the event collects, and only later (never past the start or
 * a year from now, and — issue 31 — never more than 90 days past the deadline it was created with,
 * however many extensions); the goal, the price and the refund bonus only until the first
 * commitment, and so is the show-up deposit (issue 36, only on an event with a start time and an
 * in-person place, which it then keeps); the pact type and anonymity never (SPEC §4). A change of date or place moves the
 * calendar entry (a higher stored SEQUENCE, the same UID); it and an extension of the deadline are
 * emailed to everyone who committed or is waiting.
 */

export const EDIT_TEXTS = {
  moneyLocked: "The goal and the price are fixed once someone has committed.",
  payoutsFirst: "Set up payouts (on your profile) before charging for this event.",
  deadlineLocked: "The deadline can only change while the event is collecting commitments.",
  deadlineEarlier: "The deadline can only be moved later.",
  deadlineTooFar: "Deadline cannot be more than 1 year from now",
  /** issue 31: backers agreed to a date; extensions together stop at the original deadline + 90 days */
  deadlineCapped: (latest: string, original: string) =>
    `The deadline can move to ${latest} at the latest. Extensions may add at most ${DEADLINE_EXTENSION_MAX_DAYS} days to the original deadline (${original}) in all, and never pass the event's start.`,
  bonusLocked: "The refund bonus is fixed once someone has committed.",
  saved: "Your changes are saved.",
} as const;

const editSchema = (now: () => number) => z.preprocess(readTimesInZone, z.object(editShape(now)));

export const editSelect = {
  title: true,
  status: true,
  approvalStatus: true,
  deadline: true,
  originalDeadline: true,
  refundBonusPercentage: true,
  goal: true,
  ticketPriceCents: true,
  pactType: true,
  capacity: true,
  maxSeats: true,
  depositCents: true,
  depositGraceHours: true,
  ...whenWhereSelect,
} as const;

/** What the edit form may change now, and why not where it may not. */
export function editRules(c: { status: string; deadline: Date; pledgeCount: number }, now: Date) {
  return {
    moneyLocked: c.pledgeCount > 0,
    deadlineOpen: isCollecting(c, now),
  };
}

const fieldError = (field: string, message: string) =>
  new AppError("BAD_REQUEST", message, { [field]: message });

type Edit = z.infer<ReturnType<typeof editSchema>>;
type Editable = Awaited<ReturnType<typeof loadEditable>>;
const loadEditable = (actor: Actor, campaignId: string, tx: Prisma.TransactionClient) =>
  loadCampaignFor(actor, campaignId, "manage", { tx, lock: true, select: editSelect });

/**
 * The show-up deposit of an edit (issue 36): absent (an older form) keeps the stored one; either way
 * the event must still allow it (a start time and an in-person place); fixed once people committed.
 */
function depositEdit(c: Editable, v: Edit, place: ReturnType<typeof whenWhere>, moneyLocked: boolean) {
  const typed =
    v.depositEnabled === undefined
      ? depositFormValues(c)
      : {
          depositEnabled: v.depositEnabled,
          depositAmount: v.depositAmount,
          depositGraceHours: v.depositGraceHours,
        };
  const deposit = readDeposit(typed, { pactType: c.pactType, ...place });
  if (!deposit.ok) throw fieldError(deposit.field, deposit.message);
  if (
    moneyLocked &&
    (deposit.depositCents !== c.depositCents || deposit.depositGraceHours !== c.depositGraceHours)
  )
    throw fieldError(
      deposit.depositCents !== c.depositCents ? "depositAmount" : "depositGraceHours",
      DEPOSIT_TEXTS.locked,
    );
  return deposit;
}

/**
 * People per commitment (issue 37, lib/events/seats): where the event takes groups, what was typed;
 * else 1. Absent (an older form) keeps the stored value; fixed once people committed.
 */
function seatsEdit(c: Editable, v: Edit, kind: PactKind, moneyLocked: boolean): number {
  const typed = v.maxSeats === undefined ? c.maxSeats : v.maxSeats;
  const maxSeats = groupsRefusal(kind) ? 1 : typed;
  if (moneyLocked && maxSeats !== c.maxSeats) throw fieldError("maxSeats", SEAT_TEXTS.lateChange);
  return maxSeats;
}

/** The money of an edit: goal, price, refund bonus, deposit and capacity, fixed or bounded once people committed. */
async function moneyEdits(
  tx: Prisma.TransactionClient,
  c: Editable,
  v: Edit,
  rules: { moneyLocked: boolean },
  place: ReturnType<typeof whenWhere>,
) {
  // money: fixed after the first commitment (the form shows them read-only then)
  const goal = v.goal ?? c.goal;
  const price = c.pactType === "crowdfund" ? c.ticketPriceCents : v.ticketPrice;
  if (rules.moneyLocked && (goal !== c.goal || price !== c.ticketPriceCents))
    throw fieldError(goal !== c.goal ? "goal" : "ticketPrice", EDIT_TEXTS.moneyLocked);
  // the refund bonus (issue 31): the organizer's own promise, paid events only, 1–20%; fixed like the price
  // the bonus is a share of the ticket price: a deposit alone does not make room for one
  const paid = isPaidEvent({ pactType: c.pactType, ticketPriceCents: price, depositCents: 0 });
  const bonus =
    v.refundBonusEnabled === undefined
      ? { ok: true as const, percent: c.refundBonusPercentage }
      : readRefundBonus(v.refundBonusEnabled, v.refundBonusPercentage, paid);
  if (!bonus.ok) throw fieldError("refundBonusPercentage", bonus.message);
  if (rules.moneyLocked && bonus.percent !== c.refundBonusPercentage)
    throw fieldError("refundBonusPercentage", EDIT_TEXTS.bonusLocked);
  if (bonus.percent > 0 && !paid)
    throw fieldError(
      price !== c.ticketPriceCents ? "ticketPrice" : "refundBonusPercentage",
      REFUND_BONUS_TEXTS.paidOnly,
    );
  // capacity (issue 20): at least the goal; once people have committed, only raised (or lifted)
  const capacity = c.pactType === "crowdfund" ? null : v.capacity;
  if (capacity !== null && capacity < goal) throw fieldError("capacity", CAPACITY_TEXTS.belowGoal(goal));
  if (rules.moneyLocked && capacity !== c.capacity) {
    if (c.capacity === null) throw fieldError("capacity", CAPACITY_TEXTS.lateLimit);
    // a number, and not lower: lifting the limit would leave the waitlist with no place to go
    if (capacity === null || capacity < c.capacity)
      throw fieldError("capacity", CAPACITY_TEXTS.lowered(c.capacity));
  }
  const deposit = depositEdit(c, v, place, rules.moneyLocked);
  // issue 23: an approved free event turned paid (a price, or issue 36 a deposit) needs an organizer
  // who can be paid, as approval does
  if (
    !isPaidEvent(c) &&
    isPaidEvent({ pactType: c.pactType, ticketPriceCents: price, depositCents: deposit.depositCents }) &&
    c.approvalStatus === "approved" &&
    !(await canBePaid(tx, c.creatorId))
  )
    throw fieldError(price > 0 ? "ticketPrice" : "depositEnabled", EDIT_TEXTS.payoutsFirst);
  const maxSeats = seatsEdit(
    c,
    v,
    { pactType: c.pactType, ticketPriceCents: price, depositCents: deposit.depositCents },
    rules.moneyLocked,
  );
  return { goal, price, bonus, capacity, deposit, maxSeats };
}

/** A later deadline: only while collecting, within a year, at most 90 days past the original once people agreed. */
function checkExtension(
  c: Editable,
  deadline: Date,
  place: { startsAt: Date | null; timeZone: string },
  rules: { deadlineOpen: boolean; moneyLocked: boolean },
  now: Date,
) {
  if (!rules.deadlineOpen) throw fieldError("deadline", EDIT_TEXTS.deadlineLocked);
  if (deadline < c.deadline) throw fieldError("deadline", EDIT_TEXTS.deadlineEarlier);
  const limits = deadlineLimits({ ...c, startsAt: place.startsAt }, now, rules.moneyLocked);
  if (limits.cap && deadline > limits.cap)
    throw fieldError(
      "deadline",
      EDIT_TEXTS.deadlineCapped(
        formatInZone(limits.latest, place.timeZone),
        formatInZone(limits.original, place.timeZone),
      ),
    );
  if (deadline.getTime() > now.getTime() + DEADLINE_MAX_MS)
    throw fieldError("deadline", EDIT_TEXTS.deadlineTooFar);
}

/** Who committed (the waitlist too) hears of a new date or place, and of a later deadline: one email each per cause. */
async function notifyEdit(
  tx: Prisma.TransactionClient,
  campaignId: string,
  updated: Parameters<typeof eventChangedEmail>[0] &
    Parameters<typeof deadlineExtendedEmail>[0] & { status: string },
  was: { deadline: Date },
  change: { calendarMoved: boolean; extended: boolean; withdrawUntil: Date | null },
): Promise<number> {
  const { calendarMoved, extended, withdrawUntil } = change;
  // the waitlist hears too: they agreed to be charged for the old date and place (issue 20), and
  // for the old deadline (issue 31)
  const pledges = await tx.pledge.findMany({
    where: { campaignId, ...STANDING_PLEDGE },
    select: {
      userId: true,
      waitlistedAt: true,
      amountCents: true,
      user: { select: { email: true, name: true } },
    },
  });
  const to = (p: (typeof pledges)[number]) => ({
    userId: p.userId,
    email: p.user.email,
    name: p.user.name,
  });
  const changed = calendarMoved
    ? await queueEmails(
        tx,
        pledges.map((p) =>
          eventChangedEmail(
            updated,
            to(p),
            isConfirmed(updated.status) && !p.waitlistedAt ? "CONFIRMED" : "TENTATIVE",
            withdrawUntil,
            p.waitlistedAt !== null,
          ),
        ),
      )
    : 0;
  const moved = extended
    ? await queueEmails(
        tx,
        pledges.map((p) =>
          deadlineExtendedEmail(updated, to(p), was.deadline, p.waitlistedAt !== null, p.amountCents),
        ),
      )
    : 0;
  // people emailed: both causes reach the same people (one email each per cause)
  return Math.max(changed, moved);
}

export async function updateCampaign(
  actor: Actor,
  campaignId: unknown,
  input: unknown,
  /** `resubmit` (issue 34): a rejected event goes back to review with this edit (lib/campaigns/resubmit) */
  opts: { now?: () => number; resubmit?: boolean } = {},
): Promise<{ id: string; emailed: number }> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (typeof campaignId !== "string" || !isCampaignId(campaignId))
    throw new AppError("NOT_FOUND", ACCESS_TEXTS.manageDenied);
  const clock = opts.now ?? Date.now;
  // who may is decided before the input is read: a stranger learns nothing from a validation message
  await loadCampaignFor(actor, campaignId, "manage");
  const v = parseInput(editSchema(clock), input);
  const now = new Date(clock());

  let filled: Filled | null = null;
  const emailed = await db.$transaction(async (tx) => {
    const c = await loadEditable(actor, campaignId, tx);
    if (!offers(c, "edit", now)) throw new AppError("CONFLICT", ACTION_REFUSED.edit);
    const rules = editRules({ ...c, pledgeCount: await tx.pledge.count({ where: { campaignId } }) }, now);

    // The form speaks in minutes: a time in the same minute as the stored one is the stored one.
    const keep = (typed: Date | null, stored: Date | null) =>
      typed && stored && Math.floor(typed.getTime() / 60_000) === Math.floor(stored.getTime() / 60_000)
        ? stored
        : typed;
    v.startsAt = keep(v.startsAt, c.startsAt);
    v.endsAt = keep(v.endsAt, c.endsAt);
    const deadline = keep(v.deadline, c.deadline) ?? c.deadline;
    const extended = deadline.getTime() !== c.deadline.getTime();
    const place = whenWhere({ ...v, deadline });
    const { goal, price, bonus, capacity, deposit, maxSeats } = await moneyEdits(tx, c, v, rules, place);
    if (extended) checkExtension(c, deadline, place, rules, now);
    const order = timeOrderProblem({ ...v, deadline });
    if (order) throw fieldError(order.field, order.message);

    const calendarMoved =
      !sameTime(place.startsAt, c.startsAt) ||
      !sameTime(place.endsAt, c.endsAt) ||
      place.timeZone !== c.timeZone ||
      place.venue !== c.venue ||
      place.address !== c.address ||
      place.onlineUrl !== c.onlineUrl;
    const withdrawUntil =
      calendarMoved && isConfirmed(c.status) ? changeWithdrawUntil(now, place.startsAt) : null;
    const updated = await tx.campaign.update({
      where: { id: campaignId },
      data: {
        title: v.title,
        description: v.description,
        ...textColumns(v),
        deadline,
        // nobody has committed yet: nobody agreed to a date, so this deadline is the one the cap counts from
        ...(rules.moneyLocked ? {} : { originalDeadline: deadline }),
        goal,
        ticketPriceCents: price,
        refundBonusPercentage: bonus.percent,
        depositCents: deposit.depositCents,
        depositGraceHours: deposit.depositGraceHours,
        capacity,
        maxSeats,
        ...place,
        ...(calendarMoved ? { calendarSequence: { increment: 1 } } : {}),
        // after the tip, a new date or place frees the backers who committed before it (issue 17)
        ...(withdrawUntil ? { changedAfterTipAt: now, changeWithdrawUntil: withdrawUntil } : {}),
      },
      select: { ...emailCampaignSelect, status: true },
    });
    // a raised capacity opens places: the first in line take them now
    filled = await fillOpenPlaces(tx, campaignId, now);
    if (opts.resubmit) await resubmitIn(tx, campaignId, actor.id, now);
    if (!calendarMoved && !extended) return 0;
    return notifyEdit(tx, campaignId, updated, c, { calendarMoved, extended, withdrawUntil });
  });
  if (filled) await afterPlacesFilled(campaignId, filled);
  if (emailed > 0) void kickEmailSender();
  return { id: campaignId, emailed };
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);
