import "server-only";
import { canBePaid } from "@/lib/payouts/accounts";
import "@/lib/zod";
import { z } from "zod";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Actor } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";
import { isCampaignId } from "@/lib/ids";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { parseInput } from "@/lib/actions";
import { description, logisticalDetails, title, type CampaignFormValues } from "@/lib/campaigns/schema";
import {
  addressField,
  areaField,
  bool,
  gapMessage,
  onlineUrlField,
  optionalText,
  optionalTime,
  parseDate,
  parseGoal,
  parseCapacity,
  CAPACITY_TEXTS,
  parseTicketPrice,
  readTimesInZone,
  timeOrderProblem,
  timeZoneField,
  venueField,
  whenWhere,
} from "@/lib/campaigns/fields";
import { COLLECTING_STATUSES, inStatuses, isConfirmed, STANDING_PLEDGE } from "@/lib/campaigns/lifecycle";
import { changeWithdrawUntil } from "@/lib/pledges/policy";
import { DEADLINE_MAX_MS } from "@/lib/campaigns/limits";
import { toWallClock } from "@/lib/campaigns/event-time";
import { whenWhereSelect } from "@/lib/campaigns/place";
import { emailCampaignSelect } from "@/lib/email/notifications";
import { kickEmailSender, queueEmails } from "@/lib/email/service";
import { eventChangedEmail } from "@/lib/email/templates";
import { afterPlacesFilled, fillOpenPlaces, type Filled } from "@/lib/pledges/waitlist";

/**
 * Editing an event (issue 17 item 2). The organizer may change the words, the place and the times
 * at any time; the deadline only while the event collects, and only later (never past the start or
 * a year from now); the goal and the price only until the first commitment; the pact type and
 * anonymity never (SPEC §4). A change of date or place moves the calendar entry (a higher stored
 * SEQUENCE, the same UID) and is emailed to everyone who committed.
 */

export const EDIT_TEXTS = {
  moneyLocked: "The goal and the price are fixed once someone has committed.",
  payoutsFirst: "Set up payouts (on your profile) before charging for this event.",
  deadlineLocked: "The deadline can only change while the event is collecting commitments.",
  deadlineEarlier: "The deadline can only be moved later.",
  deadlineTooFar: "Deadline cannot be more than 1 year from now",
  saved: "Your changes are saved.",
} as const;

const editSchema = (now: () => number) =>
  z.preprocess(
    readTimesInZone,
    z.object({
      title,
      description,
      logisticalDetails,
      deadline: optionalText.transform((raw, ctx) => {
        if (raw === "") return null;
        const gap = gapMessage(raw, "This deadline");
        if (gap) {
          ctx.issues.push({ code: "custom", message: gap, input: raw });
          return z.NEVER;
        }
        const d = parseDate(raw);
        if (!d) {
          ctx.issues.push({ code: "custom", message: "Deadline must be a valid date", input: raw });
          return z.NEVER;
        }
        return d;
      }),
      startsAt: optionalTime("The start", now),
      endsAt: optionalTime("The end", now),
      timeZone: timeZoneField,
      venue: venueField,
      address: addressField,
      onlineUrl: onlineUrlField,
      area: areaField,
      addressPrivate: bool(false),
      goal: optionalText.transform((raw, ctx) => (raw === "" ? null : parseGoal(raw, ctx))),
      ticketPrice: optionalText.transform((raw, ctx) => (raw === "" ? 0 : parseTicketPrice(raw, ctx))),
      capacity: optionalText.transform(parseCapacity),
    }),
  );

const editSelect = {
  title: true,
  status: true,
  deadline: true,
  goal: true,
  ticketPriceCents: true,
  pactType: true,
  capacity: true,
  ...whenWhereSelect,
} as const;

/** What the edit form may change now, and why not where it may not. */
export function editRules(c: { status: string; deadline: Date; pledgeCount: number }, now: Date) {
  return {
    moneyLocked: c.pledgeCount > 0,
    deadlineOpen: inStatuses(COLLECTING_STATUSES, c.status) && c.deadline.getTime() > now.getTime(),
  };
}

const fieldError = (field: string, message: string) =>
  new AppError("BAD_REQUEST", message, { [field]: message });

export async function updateCampaign(
  actor: Actor,
  campaignId: unknown,
  input: unknown,
  opts: { now?: () => number } = {},
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
    const c = await loadCampaignFor(actor, campaignId, "manage", { tx, lock: true, select: editSelect });
    const rules = editRules({ ...c, pledgeCount: await tx.pledge.count({ where: { campaignId } }) }, now);

    // money: fixed after the first commitment (the form shows them read-only then)
    const goal = v.goal ?? c.goal;
    const price = c.pactType === "crowdfund" ? c.ticketPriceCents : v.ticketPrice;
    if (rules.moneyLocked && (goal !== c.goal || price !== c.ticketPriceCents))
      throw fieldError(goal !== c.goal ? "goal" : "ticketPrice", EDIT_TEXTS.moneyLocked);
    // capacity (issue 20): at least the goal; once people have committed, only raised (or lifted)
    const capacity = c.pactType === "crowdfund" ? null : v.capacity;
    if (capacity !== null && capacity < goal) throw fieldError("capacity", CAPACITY_TEXTS.belowGoal(goal));
    if (rules.moneyLocked && capacity !== c.capacity) {
      if (c.capacity === null) throw fieldError("capacity", CAPACITY_TEXTS.lateLimit);
      // a number, and not lower: lifting the limit would leave the waitlist with no place to go
      if (capacity === null || capacity < c.capacity)
        throw fieldError("capacity", CAPACITY_TEXTS.lowered(c.capacity));
    }
    // issue 23: an approved free event turned paid needs an organizer who can be paid, as approval does
    if (
      c.ticketPriceCents === 0 &&
      price > 0 &&
      c.approvalStatus === "approved" &&
      !(await canBePaid(tx, c.creatorId))
    )
      throw fieldError("ticketPrice", EDIT_TEXTS.payoutsFirst);

    // The form speaks in minutes: a time in the same minute as the stored one is the stored one.
    const keep = (typed: Date | null, stored: Date | null) =>
      typed && stored && Math.floor(typed.getTime() / 60_000) === Math.floor(stored.getTime() / 60_000)
        ? stored
        : typed;
    v.startsAt = keep(v.startsAt, c.startsAt);
    v.endsAt = keep(v.endsAt, c.endsAt);
    // the deadline: later only, while collecting, within a year
    const deadline = keep(v.deadline, c.deadline) ?? c.deadline;
    if (deadline.getTime() !== c.deadline.getTime()) {
      if (!rules.deadlineOpen) throw fieldError("deadline", EDIT_TEXTS.deadlineLocked);
      if (deadline < c.deadline) throw fieldError("deadline", EDIT_TEXTS.deadlineEarlier);
      if (deadline.getTime() > now.getTime() + DEADLINE_MAX_MS)
        throw fieldError("deadline", EDIT_TEXTS.deadlineTooFar);
    }
    const order = timeOrderProblem({ ...v, deadline });
    if (order) throw fieldError(order.field, order.message);

    const place = whenWhere({ ...v, deadline });
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
        logisticalDetails: v.logisticalDetails || null,
        deadline,
        goal,
        ticketPriceCents: price,
        capacity,
        ...place,
        ...(calendarMoved ? { calendarSequence: { increment: 1 } } : {}),
        // after the tip, a new date or place frees the backers who committed before it (issue 17)
        ...(withdrawUntil ? { changedAfterTipAt: now, changeWithdrawUntil: withdrawUntil } : {}),
      },
      select: { ...emailCampaignSelect, status: true },
    });
    // a raised capacity opens places: the first in line take them now
    filled = await fillOpenPlaces(tx, campaignId, now);
    if (!calendarMoved) return 0;
    // the waitlist hears too: they agreed to be charged for the old date and place (issue 20)
    const pledges = await tx.pledge.findMany({
      where: { campaignId, ...STANDING_PLEDGE },
      select: { userId: true, waitlistedAt: true, user: { select: { email: true, name: true } } },
    });
    return queueEmails(
      tx,
      pledges.map((p) =>
        eventChangedEmail(
          updated,
          { userId: p.userId, email: p.user.email, name: p.user.name },
          isConfirmed(updated.status) && !p.waitlistedAt ? "CONFIRMED" : "TENTATIVE",
          withdrawUntil,
          p.waitlistedAt !== null,
        ),
      ),
    );
  });
  if (filled) await afterPlacesFilled(campaignId, filled);
  if (emailed > 0) void kickEmailSender();
  return { id: campaignId, emailed };
}

const sameTime = (a: Date | null, b: Date | null) => (a?.getTime() ?? null) === (b?.getTime() ?? null);

/** The edit form's starting values (times as wall clocks in the event's zone) and what is locked. */
export type EditView = {
  id: string;
  values: Pick<
    CampaignFormValues,
    | "title"
    | "description"
    | "logisticalDetails"
    | "goal"
    | "ticketPrice"
    | "deadline"
    | "startsAt"
    | "endsAt"
    | "timeZone"
    | "venue"
    | "address"
    | "onlineUrl"
    | "area"
    | "addressPrivate"
    | "capacity"
  >;

  crowdfund: boolean;
  moneyLocked: boolean;
  deadlineOpen: boolean;
};

/** The edit form's data, or null when `actor` may not manage the event (the page sends them home). */
export async function getEditView(
  actor: Actor,
  campaignId: string,
  now = new Date(),
): Promise<EditView | null> {
  if (!actor || !isCampaignId(campaignId)) return null;
  const c = await loadCampaignFor(actor, campaignId, "manage", {
    select: { ...editSelect, description: true, logisticalDetails: true },
  }).catch(() => null);
  if (!c) return null;
  const pledgeCount = await db.pledge.count({ where: { campaignId } });
  const wall = (d: Date | null) => (d ? toWallClock(d.getTime(), c.timeZone) : "");
  const cents = c.ticketPriceCents;
  return {
    id: c.id,
    values: {
      title: c.title,
      description: c.description,
      logisticalDetails: c.logisticalDetails ?? "",
      goal: String(c.goal),
      ticketPrice: cents === 0 ? "" : cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2),
      deadline: wall(c.deadline),
      startsAt: wall(c.startsAt),
      endsAt: wall(c.endsAt),
      timeZone: c.timeZone,
      venue: c.venue ?? "",
      address: c.address ?? "",
      onlineUrl: c.onlineUrl ?? "",
      area: c.area ?? "",
      addressPrivate: c.addressPrivate,
      capacity: c.capacity === null ? "" : String(c.capacity),
    },
    crowdfund: c.pactType === "crowdfund",
    ...editRules({ ...c, pledgeCount }, now),
  };
}
