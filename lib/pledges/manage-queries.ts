import "server-only";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/access/viewer";
import { campaignIdSchema } from "@/lib/pledges/schema";
import { paymentCounts } from "@/lib/charging/queries";
import { recoveryPhase } from "@/lib/ledger/payment-window";
import { standingWhere, type Standing } from "@/lib/events/standing";
import { refundState } from "@/lib/ledger/queries";
import { organizerStory, type OrganizerStory } from "@/lib/events/story";
import { isCrowdfund, isPaidEvent, LIVE_PLEDGE, MEMBER_PLEDGE } from "@/lib/events/lifecycle";
import { waitlistPositions } from "@/lib/campaigns/waitlist";
import { mayGoAhead } from "@/lib/campaigns/thresholds";
import { canManageEvent } from "@/lib/access/rules";
import { needsPayoutSetup } from "@/lib/access/payable";
import { ledgerOf, type Ledger } from "@/lib/payouts/ledger";
import { groupSeatsByGroup, type GroupSeats } from "@/lib/pledges/seats";
import { plural } from "@/lib/format";

/** The organizer's view of their event: every commitment with its charge state, the chart, the CSV (SPEC §6). */
export type ManageCommitment = {
  id: string;
  contributor: string;
  email: string;
  createdAt: string;
  amountCents: number;
  amount: number;
  charged: boolean;
  verified: boolean;
  chargeStatus: string;
  chargeFailureCode: string | null;
  chargeFailureMessage: string | null;
  cardBrand: string | null;
  cardLast4: string | null;
  chargedAt: string | null;
  /** issue 32: the commitment's place (lib/events/standing.ts) */
  standing: Standing;
  /** the backer withdrew (DESIGN §1 "withdrawing"): listed for the organizer, counted nowhere */
  withdrawnAt: string | null;
  /** issue 20: its place in line while it waits, else null */
  waitlistPosition: number | null;
  /** issue 20: when a place opened for it */
  promotedAt: string | null;
  /** issue 21: "only count me if at least N people are in", and whether it counts now */
  minPeople: number | null;
  counted: boolean;
  /** the one story of the commitment, in the organizer's words (badge, note; the CSV's status) */
  status: OrganizerStory;
  /** issue 34: its money rows — charged and refunded (they add up to the payout ledger's figures) */
  chargedCents: number;
  refundedCents: number;
  /** issue 37: a seat of a group in words ("Holds 3 seats", "Guest 1"), null for one person */
  seat: string | null;
};

export type ManageView = {
  campaign: {
    id: string;
    title: string;
    goal: number;
    committedCount: number;
    pledgeCount: number;
    raisedCents: number;
    status: string;
    approvalStatus: string;
    deadline: string;
    createdAt: string;
    ticketPriceCents: number;
    depositCents: number;
    crowdfund: boolean;
    paid: boolean;
    paymentType: string | null;
    paymentMethod: string | null;
    attendeesAnonymous: boolean;
    identityRevelationType: string;
    chargedAt: string | null;
    /** a paid event: the charges that went through (the payout ledger's); free: the pledges confirmed */
    totalCharged: number;
    /** the money collected: the payout ledger's (refunds not taken off) */
    totalChargedCents: number;
    timeZone: string;
    /** the uploaded cover (issue 17), or null */
    coverId: string | null;
    /** charges given back (the payout ledger's): the totals net these out (issues 16, 34) */
    refundedCount: number;
    refundedCents: number;
    /** issue 20: the most people who may be in (null: no limit), and how many wait */
    capacity: number | null;
    waitlistCount: number;
    /** issue 21: the organizer may go ahead now (opted in, from 80% of the goal), or went ahead */
    mayGoAhead: boolean;
    goAheadAt: string | null;
    goAheadCount: number | null;
  };
  /** newest first, at most MANAGE_COMMITMENTS_LIMIT (the CSV has all) */
  commitments: ManageCommitment[];
  totalCommitments: number;
  /** commitments taken back by their backers (listed, not counted) */
  withdrawnCount: number;
  /** pledges a manual charge would take (saved card, not charged, not being processed) */
  chargeableCount: number;
  /** failed payments (DESIGN §1 "failed payments"): waiting for the backer's new card */
  failedCount: number;
  /** soft declines an automatic retry is still to come for */
  retryingCount: number;
  /** windows that closed unpaid: the pledge was dropped */
  droppedCount: number;
  /**
   * Issue 34: the event's money as /payouts, its CSV and check-and-charge tell it — the payout
   * ledger (lib/payouts/ledger.ts), the one source of every collected, refunded and net figure.
   */
  money: Ledger;
  /** issue 34: a paid event waiting for its organizer's payouts before it can be approved */
  payoutsSetupNeeded: boolean;
  /** cumulative progress after each pledge, oldest first, for the chart */
  timeline: Array<{ at: string; total: number }>;
};

/** The manage page's data, or null when the campaign does not exist or `viewer` is not its creator. */
/** What the manage page reads of the event. */
const MANAGED_EVENT = {
  id: true,
  title: true,
  goal: true,
  committedCount: true,
  pledgeCount: true,
  raisedCents: true,
  status: true,
  approvalStatus: true,
  deadline: true,
  createdAt: true,
  creatorId: true,
  ticketPriceCents: true,
  depositCents: true,
  pactType: true,
  paymentType: true,
  paymentMethod: true,
  attendeesAnonymous: true,
  identityRevelationType: true,
  chargedAt: true,
  totalCharged: true,
  timeZone: true,
  coverId: true,
  capacity: true,
  waitlistCount: true,
  earlyGoAhead: true,
  goAheadAt: true,
  goAheadCount: true,
} as const;

type ManagedEvent = NonNullable<Awaited<ReturnType<typeof readManagedEvent>>>;
const readManagedEvent = (campaignId: string) =>
  db.campaign.findUnique({ where: { id: campaignId }, select: MANAGED_EVENT });

/** The event's figures beside its commitments: counts, payment states, the members over time, refunds. */
async function managedFigures(c: ManagedEvent, paid: boolean) {
  const [commitments, total, withdrawnCount, payments, points, money] = await Promise.all([
    listManagedPledges(c.id, { paid, cancelled: c.status === "cancelled" }, MANAGE_COMMITMENTS_LIMIT),
    db.pledge.count({ where: { campaignId: c.id, ...LIVE_PLEDGE } }),
    // withdrawn in any way but dropped (a failed payment's release is counted with the payments)
    db.pledge.count({
      where: { campaignId: c.id, ...standingWhere(["withdrawn", "gave_up", "released", "waitlist_closed"]) },
    }),
    paymentCounts(c.id),
    db.pledge.findMany({
      where: { campaignId: c.id, ...MEMBER_PLEDGE },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
      select: { createdAt: true, amountCents: true, paymentMethodId: true },
    }),
    ledgerOf(db, c.id),
  ]);
  return { commitments, total, withdrawnCount, payments, points, money };
}

/** The running count of members over time (crowdfunds count dollars; a paid paction, members with a card). */
function timelineOf(
  points: { createdAt: Date; amountCents: number; paymentMethodId: string | null }[],
  crowdfund: boolean,
  paid: boolean,
) {
  let running = 0;
  return points.map((p) => {
    running += crowdfund ? Math.floor(p.amountCents / 100) : !paid || p.paymentMethodId ? 1 : 0;
    return { at: p.createdAt.toISOString(), total: running };
  });
}

function campaignSummary(c: ManagedEvent, money: Ledger): ManageView["campaign"] {
  const crowdfund = isCrowdfund(c);
  const paid = isPaidEvent(c);
  return {
    id: c.id,
    title: c.title,
    goal: c.goal,
    committedCount: crowdfund ? Math.floor(Number(c.raisedCents) / 100) : c.committedCount,
    pledgeCount: c.pledgeCount,
    // bigint sums in the database, numbers from here on (< 2^53)
    raisedCents: Number(c.raisedCents),
    status: c.status,
    approvalStatus: c.approvalStatus,
    deadline: c.deadline.toISOString(),
    createdAt: c.createdAt.toISOString(),
    ticketPriceCents: c.ticketPriceCents,
    depositCents: c.depositCents,
    crowdfund,
    paid,
    paymentType: c.paymentType,
    paymentMethod: c.paymentMethod,
    attendeesAnonymous: c.attendeesAnonymous,
    identityRevelationType: c.identityRevelationType,
    chargedAt: c.chargedAt?.toISOString() ?? null,
    // issue 34: the money figures are the payout ledger's, as on /payouts (not the columns set at the tip)
    totalCharged: paid ? money.chargeCount : c.totalCharged,
    totalChargedCents: money.collectedCents,
    timeZone: c.timeZone,
    coverId: c.coverId,
    refundedCount: money.refundCount,
    refundedCents: money.refundedCents,
    capacity: c.capacity,
    waitlistCount: c.waitlistCount,
    mayGoAhead: mayGoAhead(c, new Date()),
    goAheadAt: c.goAheadAt?.toISOString() ?? null,
    goAheadCount: c.goAheadCount,
  };
}

export async function getManageView(campaignId: string, viewer: Viewer | null): Promise<ManageView | null> {
  if (!viewer || !campaignIdSchema.safeParse(campaignId).success) return null;
  const c = await readManagedEvent(campaignId);
  if (!c || !canManageEvent(viewer, c)) return null;
  const paid = isPaidEvent(c);
  const { commitments, total, withdrawnCount, payments, points, money } = await managedFigures(c, paid);
  return {
    campaign: campaignSummary(c, money),
    money,
    payoutsSetupNeeded: await needsPayoutSetup(c, viewer.id),
    commitments,
    totalCommitments: total,
    withdrawnCount,
    chargeableCount: payments.chargeable,
    failedCount: payments.awaitingCard,
    retryingCount: payments.retrying,
    droppedCount: payments.dropped,
    timeline: timelineOf(points, isCrowdfund(c), paid),
  };
}

/** Issue 37: a seat of a group as the organizer reads it; null for a commitment of one. */
function seatLabel(id: string, groupId: string | null, guestSlot: number, groups: Map<string, GroupSeats>) {
  if (!groupId) return null;
  if (guestSlot > 0) return `Guest ${guestSlot}`;
  if (groupId !== id) return "Claimed guest seat";
  return `Holds ${plural(groups.get(groupId)?.seats ?? 1, "seat", "seats")}`;
}

/** The manage page lists this many newest commitments; the CSV export has every one. */
const MANAGE_COMMITMENTS_LIMIT = 500;

/**
 * Every commitment of an event for its organizer; `paid`: the event takes money (lifecycle isPaidEvent).
 * A free event's confirmation time is not a payment: `chargedAt` is null there (the CSV's "Charged at").
 */
export async function listManagedPledges(
  campaignId: string,
  event: { paid: boolean; cancelled: boolean },
  take?: number,
): Promise<ManageCommitment[]> {
  const { paid, cancelled: eventCancelled } = event;
  const rows = await db.pledge.findMany({
    where: { campaignId },
    take,
    // issue 37: a group's seats share their commit time: the holder's first, then the guest seats in order
    orderBy: [{ createdAt: "desc" }, { guestSlot: "asc" }, { id: "desc" }],
    select: {
      id: true,
      createdAt: true,
      amount: true,
      amountCents: true,
      charged: true,
      verified: true,
      chargeStatus: true,
      chargeFailureCode: true,
      chargeFailureMessage: true,
      cardBrand: true,
      cardLast4: true,
      chargedAt: true,
      standing: true,
      withdrawnAt: true,
      chargeAttempts: true,
      promotedAt: true,
      minPeople: true,
      groupId: true,
      guestSlot: true,
      user: { select: { name: true, email: true } },
    },
  });
  const groups = await groupSeatsByGroup(db, [
    ...new Set(rows.flatMap((p) => (p.groupId && p.guestSlot === 0 ? [p.groupId] : []))),
  ]);
  const waiting = rows.filter((p) => p.standing === "waiting").map((p) => p.id);
  const [positions, money] = await Promise.all([
    waitlistPositions(campaignId, waiting),
    refundState(rows.map((p) => p.id)),
  ]);
  // The creator always sees who committed (SPEC §6).
  return rows.map(({ user, chargeAttempts, groupId, guestSlot, ...p }) => ({
    ...p,
    seat: seatLabel(p.id, groupId, guestSlot, groups),
    counted: p.standing === "in",
    status: organizerStory({
      standing: p.standing,
      chargeStatus: p.chargeStatus,
      charged: p.charged,
      refund: money.get(p.id)?.refund ?? "none",
      eventCancelled,
      paid,
      cents: p.amountCents,
      recovery: recoveryPhase({
        ...p,
        chargeAttempts,
        droppedAt: p.standing === "dropped" ? p.withdrawnAt : null,
      }),
      failureCode: p.chargeFailureCode,
      promoted: p.promotedAt !== null,
      verified: p.verified,
      minPeople: p.minPeople,
      waitlist:
        p.standing === "waiting"
          ? { position: positions.get(p.id) ?? null, paused: p.chargeStatus !== "none" }
          : null,
    }),
    waitlistPosition: positions.get(p.id) ?? null,
    chargedCents: money.get(p.id)?.chargedCents ?? 0,
    refundedCents: money.get(p.id)?.refundedCents ?? 0,
    promotedAt: p.promotedAt?.toISOString() ?? null,
    contributor: user.name?.trim() || user.email,
    email: user.email,
    createdAt: p.createdAt.toISOString(),
    chargedAt: paid ? (p.chargedAt?.toISOString() ?? null) : null,
    withdrawnAt: p.withdrawnAt?.toISOString() ?? null,
  }));
}
