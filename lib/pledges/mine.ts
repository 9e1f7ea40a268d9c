import "server-only";
import { z } from "zod";
import { db } from "@/lib/db";
import { parseInput } from "@/lib/actions";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import type { Viewer } from "@/lib/auth/viewer";
import { campaignIdSchema } from "@/lib/pledges/schema";
import { withdrawRule } from "@/lib/pledges/policy";
import {
  inStatuses,
  CALLED_OFF_STATUSES,
  CONFIRMED_STATUSES,
  isCrowdfund,
  isPaidEvent,
  isConfirmed,
  STANDING_PLEDGE,
  waitlistOpen,
  phaseOf,
  PHASE_BADGES,
  pledgeChargeCents,
  progress,
} from "@/lib/campaigns/lifecycle";
import { formatInZone } from "@/lib/campaigns/event-time";
import { formatCents, plural } from "@/lib/format";
import { waitlistPositions } from "@/lib/pledges/waitlist";
import { AUTO_RETRY_AFTER_MS, paymentDueBy, recoveryPhase } from "@/lib/charging/payment-window";

/**
 * The backer's own commitments (issue 18): what they committed to, their state in words, their
 * card, and what they may still do. Only ever built for the pledge's own user — card details and
 * charge states appear in nobody else's view (the public list keeps SPEC's payment method text).
 */
export type BackerState =
  | "waiting"
  | "confirmed"
  | "charged"
  | "failed"
  | "expired"
  | "cancelled"
  | "refunded"
  | "withdrawn"
  | "dropped"
  | "waitlisted";

export type MyCommitment = {
  pledgeId: string;
  campaignId: string;
  title: string;
  committedAt: string;
  /** the event's phase badge (the campaign core's words) */
  phase: { label: string; tone: "brand" | "green" | "slate" | "red" };
  state: BackerState;
  /** the state in words: "Waiting — 3 more needed", "Charged $12.00 on Dec 1, 2026 …" */
  stateText: string;
  tone: "brand" | "green" | "slate" | "red" | "amber";
  amountCents: number;
  card: { brand: string; last4: string } | null;
  /** withdrawing is possible now: before the tip, or until `until` after a change after the tip */
  withdraw: { kind: "open" } | { kind: "afterChange"; until: string; untilText: string } | null;
  /** a paid commitment before the tip may change its card */
  canChangeCard: boolean;
  /** a failed charge: the page to pay it */
  payUrl: string | null;
  /**
   * A failed payment's recovery window (DESIGN §1 "failed payments"): the banner ("Your $9.00
   * payment failed — update your card by …"), what happens otherwise, and the automatic retry if one
   * is still to come.
   */
  recovery: { banner: string; dueAt: string; zone: string; consequence: string; retry: string | null } | null;
  /** issue 20: waiting for a place — its place in line; `paused`: a promotion's charge failed, a new card is needed */
  waitlist: { position: number; paused: boolean } | null;
  /** issue 20: after the tip, with people waiting: the place may be given to the first in line */
  canGiveUp: boolean;
  /** issue 20: this commitment took a place that opened */
  promotedAt: string | null;
  /** the event has a date: the calendar entry */
  calendarUrl: string | null;
  paymentIntentId: string | null;
};

const select = {
  id: true,
  campaignId: true,
  createdAt: true,
  amountCents: true,
  cardBrand: true,
  cardLast4: true,
  paymentMethodId: true,
  chargeStatus: true,
  chargedAt: true,
  refundedAt: true,
  withdrawnAt: true,
  droppedAt: true,
  paymentFailedAt: true,
  chargeAttempts: true,
  chargeFailureCode: true,
  paymentIntentId: true,
  waitlistedAt: true,
  promotedAt: true,
  gaveUpAt: true,
  waitlistClosedAt: true,
  minPeople: true,
  memberSince: true,
  conditionReleasedAt: true,
  handedTo: { select: { chargeStatus: true } },
  campaign: {
    select: {
      id: true,
      title: true,
      status: true,
      deadline: true,
      goal: true,
      committedCount: true,
      raisedCents: true,
      ticketPriceCents: true,
      pactType: true,
      startsAt: true,
      timeZone: true,
      changedAfterTipAt: true,
      changeWithdrawUntil: true,
      capacity: true,
      waitlistCount: true,
    },
  },
} as const;

type Row = NonNullable<Awaited<ReturnType<typeof findRows>>>[number];
const findRows = (where: object, take: number) =>
  db.pledge.findMany({ where, select, orderBy: [{ createdAt: "desc" }, { id: "desc" }], take });

function present(p: Row, now: Date, position: number | null): MyCommitment {
  const c = p.campaign;
  const paid = isPaidEvent(c);
  const cents = pledgeChargeCents(c, p);
  const zone = c.timeZone;
  const phase = PHASE_BADGES[phaseOf(c, now)];
  let state: BackerState;
  let stateText: string;
  let tone: MyCommitment["tone"];
  let recovery: MyCommitment["recovery"] = null;
  const waiting = p.waitlistedAt !== null && p.withdrawnAt === null;
  const paused = waiting && p.chargeStatus !== "none";
  if (waiting) {
    state = "waitlisted";
    stateText = paused
      ? "A place opened, but your card was declined — update your card to stay in line"
      : `On the waitlist — #${position ?? "?"} in line`;
    tone = paused ? "red" : "amber";
  } else if (p.conditionReleasedAt) {
    state = "withdrawn";
    stateText = `Released — your condition (at least ${p.minPeople} people) wasn't met by the deadline; never charged`;
    tone = "slate";
  } else if (p.waitlistClosedAt) {
    state = "withdrawn";
    stateText = `The waitlist closed when the event started — never charged`;
    tone = "slate";
  } else if (p.gaveUpAt) {
    state = "withdrawn";
    stateText =
      p.chargeStatus === "refunded"
        ? `Gave up your place on ${formatInZone(p.gaveUpAt, zone)} — ${formatCents(p.amountCents)} refunded`
        : p.chargeStatus === "succeeded" && paid
          ? `Gave up your place on ${formatInZone(p.gaveUpAt, zone)} — ${formatCents(p.amountCents)} is refunded once the person who took it has paid`
          : `Gave up your place on ${formatInZone(p.gaveUpAt, zone)} — never charged`;
    tone = "slate";
  } else if (p.droppedAt) {
    state = "dropped";
    stateText =
      p.chargeStatus === "refunded"
        ? `Dropped on ${formatInZone(p.droppedAt, zone)} — the payment wasn't completed in time; ${formatCents(p.amountCents)} refunded`
        : `Dropped on ${formatInZone(p.droppedAt, zone)} — the payment wasn't completed in time; never charged`;
    tone = "slate";
  } else if (p.withdrawnAt) {
    state = "withdrawn";
    stateText =
      p.chargeStatus === "refunded"
        ? `Withdrawn on ${formatInZone(p.withdrawnAt, zone)} — ${formatCents(p.amountCents)} refunded`
        : `Withdrawn on ${formatInZone(p.withdrawnAt, zone)} — never charged`;
    tone = "slate";
  } else if (p.chargeStatus === "refunded") {
    state = "refunded";
    stateText = `Refunded ${formatCents(p.amountCents)} — the event was cancelled`;
    tone = "slate";
  } else if (c.status === "cancelled") {
    state = "cancelled";
    stateText = "Not charged — the event was cancelled";
    tone = "slate";
  } else if (c.status === "expired" || (c.status === "pending" && c.deadline <= now)) {
    state = "expired";
    stateText = "Not charged — the goal was not reached";
    tone = "slate";
  } else if (p.minPeople !== null && p.memberSince === null && !p.withdrawnAt) {
    // issue 21: a condition that does not hold yet — a place, not counted, not charged
    state = "waiting";
    stateText = `You count once ${p.minPeople} people are in — ${c.committedCount} are now`;
    tone = "amber";
  } else if (c.status === "pending") {
    const left = Math.max(0, c.goal - progress(c).value);
    state = "waiting";
    stateText = isCrowdfund(c)
      ? `Waiting — $${left.toLocaleString("en-US")} more needed`
      : `Waiting — ${plural(left, "more person", "more people")} needed`;
    tone = "brand";
  } else if (p.chargeStatus === "failed" || p.chargeStatus === "requires_action") {
    state = "failed";
    stateText =
      p.chargeStatus === "requires_action"
        ? "Payment needs your confirmation — please complete it"
        : "Payment failed — please update your card";
    tone = "red";
    const failedAt = p.paymentFailedAt ?? now;
    const dueAt = paymentDueBy(failedAt, c.startsAt);
    const due = formatInZone(dueAt, zone);
    recovery = {
      dueAt: dueAt.toISOString(),
      zone,
      banner:
        p.chargeStatus === "requires_action"
          ? `Your ${formatCents(cents)} payment needs your confirmation — complete it by ${due}`
          : `Your ${formatCents(cents)} payment failed — update your card by ${due}`,
      consequence: "If it isn't paid by then, your place is released and you won't be charged.",
      // the automatic retry, if one is still to come inside the window
      retry:
        recoveryPhase(p) === "retrying" && failedAt.getTime() + AUTO_RETRY_AFTER_MS < dueAt.getTime()
          ? `We'll also try your card once more on ${formatInZone(new Date(failedAt.getTime() + AUTO_RETRY_AFTER_MS), zone)}.`
          : null,
    };
  } else if (p.chargeStatus === "succeeded" && paid) {
    state = "charged";
    stateText = `Charged ${formatCents(p.amountCents)} on ${formatInZone(p.chargedAt ?? now, zone)}${p.promotedAt ? " — a place opened for you on the waitlist" : ""}`;
    tone = "green";
  } else {
    state = "confirmed";
    stateText = paid ? "Confirmed — your card is being charged" : "Confirmed — it is happening";
    tone = "green";
  }
  // leaving the waitlist is open at any time (nothing was charged)
  const uncounted =
    waiting || (p.minPeople !== null && p.memberSince === null && !inStatuses(CALLED_OFF_STATUSES, c.status));
  const rule = p.withdrawnAt ? null : uncounted ? ({ kind: "open" } as const) : withdrawRule(c, p, now);
  const standing = p.withdrawnAt === null;
  return {
    pledgeId: p.id,
    campaignId: c.id,
    title: c.title,
    committedAt: p.createdAt.toISOString(),
    phase,
    state,
    stateText,
    tone,
    amountCents: paid ? cents : 0,
    card: p.cardLast4 && !p.withdrawnAt ? { brand: p.cardBrand ?? "card", last4: p.cardLast4 } : null,
    withdraw:
      rule?.kind === "open"
        ? { kind: "open" }
        : rule?.kind === "afterChange"
          ? {
              kind: "afterChange",
              until: rule.until.toISOString(),
              untilText: formatInZone(rule.until, zone),
            }
          : null,
    canChangeCard: paid && rule?.kind === "open" && (p.paymentMethodId !== null || paused),
    payUrl: state === "failed" && inStatuses(CONFIRMED_STATUSES, c.status) ? `/pledges/${p.id}/pay` : null,
    recovery: inStatuses(CONFIRMED_STATUSES, c.status) ? recovery : null,
    waitlist: waiting ? { position: position ?? 0, paused } : null,
    canGiveUp: standing && !waiting && isConfirmed(c.status) && c.waitlistCount > 0 && waitlistOpen(c, now),
    promotedAt: p.promotedAt?.toISOString() ?? null,
    calendarUrl: c.startsAt && standing ? `/campaign/${c.id}/calendar.ics` : null,
    paymentIntentId: p.chargeStatus === "succeeded" ? p.paymentIntentId : null,
  };
}

/** The places in line of the waiting ones among `rows` (one query per event they wait for). */
async function positionsOf(rows: Row[]): Promise<Map<string, number>> {
  const waiting = rows.filter((r) => r.waitlistedAt && !r.withdrawnAt);
  const out = new Map<string, number>();
  for (const campaignId of new Set(waiting.map((r) => r.campaignId))) {
    const ids = waiting.filter((r) => r.campaignId === campaignId).map((r) => r.id);
    for (const [id, n] of await waitlistPositions(campaignId, ids)) out.set(id, n);
  }
  return out;
}

const myCommitmentInput = z.object({ campaignId: campaignIdSchema }).strict();

/** The viewer's live commitment to one event (the event page's "You're in" card), or null. */
export async function getMyCommitment(
  viewer: Viewer,
  input: unknown,
  now = new Date(),
): Promise<MyCommitment | null> {
  const { campaignId } = parseInput(myCommitmentInput, input, { message: ACCESS_TEXTS.campaignNotFound });
  const [row] = await findRows({ campaignId, userId: viewer.id, ...STANDING_PLEDGE }, 1);
  if (!row) return null;
  const positions = await positionsOf([row]);
  return present(row, now, positions.get(row.id) ?? null);
}

/** Every commitment of the viewer, newest first (withdrawn ones too, marked so), at most `take`. */
export async function listMyCommitments(
  viewer: Viewer,
  now = new Date(),
  take = 100,
): Promise<MyCommitment[]> {
  const rows = await findRows({ userId: viewer.id }, take);
  const positions = await positionsOf(rows);
  return rows.map((r) => present(r, now, positions.get(r.id) ?? null));
}
