/**
 * The campaign core (issue 15): what state an event is in, when it is confirmed, what kind of pact
 * it is and what one pledge costs. Every surface — pages, cards, emails, APIs, SQL, the cache —
 * asks here and re-derives nothing. Pure and dependency-free (no zod, no Prisma): client
 * components, the proxy and SQL builders import it.
 *
 * Status moves (DESIGN §1): pending → funded (threshold met) → charging → charged; pending →
 * expired (deadline passed below the threshold); pending | funded | charging | charged → cancelled.
 */
import {
  COUNTED,
  HOLDS_PLACE,
  STANDS,
  standingSql,
  standingWhere,
  type Badge,
  type Tone,
} from "@/lib/events/standing";

export const CAMPAIGN_STATUSES = [
  "pending",
  "funded",
  "charging",
  "charged",
  "expired",
  "cancelled",
] as const;
export type CampaignStatus = (typeof CAMPAIGN_STATUSES)[number];

/** Taking commitments toward the threshold. */
export const COLLECTING_STATUSES = ["pending"] as const;
/** The threshold was met: the event is confirmed and its pledges are (being) charged. */
export const CONFIRMED_STATUSES = ["funded", "charging", "charged"] as const;
/** Confirmed, its charging not yet settled. */
export const SETTLING_STATUSES = ["funded", "charging"] as const;
/** Over without anyone paying. */
export const CALLED_OFF_STATUSES = ["expired", "cancelled"] as const;
/** No new commitment is taken (DESIGN §1 "after confirmation"), unless the event keeps accepting late ones. */
export const CLOSED_STATUSES = [...CONFIRMED_STATUSES, ...CALLED_OFF_STATUSES] as const;
/** An event can be cancelled from anything not already over. */
export const CANCELLABLE_STATUSES = [...COLLECTING_STATUSES, ...CONFIRMED_STATUSES] as const;

export type StatusSet = readonly CampaignStatus[];

/** Whether `status` is in `set` (any string: rows from raw SQL carry plain text). */
export const inStatuses = (set: StatusSet, status: string): boolean =>
  (set as readonly string[]).includes(status);

/**
 * A set as the body of an SQL `IN (...)` list: `'funded', 'charging', 'charged'`. The values are
 * this module's constants, never input; SQL builders wrap it in Prisma.raw (lib/db.ts statusIn).
 */
export const sqlStatusList = (set: StatusSet): string => set.map((s) => `'${s}'`).join(", ");

export const isConfirmed = (status: string) => inStatuses(CONFIRMED_STATUSES, status);
/** Still collecting: taking commitments toward the threshold and before its deadline (said once, here). */
export const isCollecting = (c: { status: string; deadline: Date }, now: Date) =>
  inStatuses(COLLECTING_STATUSES, c.status) && c.deadline.getTime() > now.getTime();
export const isCancellable = (status: string) => inStatuses(CANCELLABLE_STATUSES, status);
/** An admin may reject an event until it tips; after that it is cancelled (with refunds) instead. */
export const isRejectable = (status: string) => !isConfirmed(status);

// ---- pact types (DESIGN §1 "pact types") ----------------------------------------------------------

/**
 * - a paid paction: backers save a card and are charged the ticket price when it tips;
 * - a crowdfund: backers pledge an amount (≥ $1) with a saved card and are charged that amount when
 *   it tips, whatever the ticket price (it is not used for crowdfunds) — a $0 crowdfund is paid too;
 * - a free paction: no card, nothing charged — unless it takes a show-up deposit (issue 36,
 *   lib/events/deposit.ts): then backers save a card and are charged the deposit alone at the tip.
 * `depositCents` is required so that no caller forgets it: "paid" means "takes a card and money";
 * whether there is a ticket price is `ticketPriceCents > 0`.
 */
export type PactKind = { pactType?: string | null; ticketPriceCents: number; depositCents: number };

export const isCrowdfund = (c: { pactType?: string | null }) => c.pactType === "crowdfund";

/** Backers save a card and are charged at the tip: paid pactions, every crowdfund, and a deposit. */
export const isPaidEvent = (c: PactKind) => isCrowdfund(c) || c.ticketPriceCents > 0 || c.depositCents > 0;

/** Nothing is charged: a paction without a ticket price or a deposit. */
export const isFreeEvent = (c: PactKind) => !isPaidEvent(c);

/**
 * What charging one pledge takes for its ticket: the crowdfund pledge's own amount, else the ticket
 * price (0 on a free event with a deposit: the charge adds the deposit, lib/charging/pipeline).
 */
export const pledgeChargeCents = (c: PactKind, pledge: { amountCents: number }) =>
  isCrowdfund(c) ? pledge.amountCents : c.ticketPriceCents;

/**
 * Whether one commitment counts toward a paction's goal (DESIGN §1 "threshold"): on a paid event only
 * with a saved card, on a free one always. The commit adds what this says; a withdrawal takes it back.
 */
export const countsTowardGoal = (c: PactKind, hasCard: boolean) => !isPaidEvent(c) || hasCard;

/** $1: a crowdfund pledge counts whole dollars toward the goal. */
export const CROWDFUND_MIN_CENTS = 100;

/**
 * The pledge rules, each built from one list of standings (lib/events/standing.ts, issue 32) as a
 * Prisma filter and as SQL for the pledge table under `alias` (lib/events/sql.ts wraps the SQL for
 * tagged statements).
 *
 * A pledge that holds a place — not withdrawn (DESIGN §1 "withdrawing") and not waiting on the
 * waitlist (issue 20): every count, list, email audience, cached-copy audience and charge asks this.
 */
export const LIVE_PLEDGE = standingWhere(HOLDS_PLACE);
export const livePledgeWhere = (alias?: string) => `(${standingSql(HOLDS_PLACE, alias)})`;
/**
 * A commitment that stands, in or waiting (not withdrawn): one per person and event (the unique
 * index); what "you have already committed", the backer's own views and card reuse ask.
 */
export const STANDING_PLEDGE = standingWhere(STANDS);
export const standingPledgeWhere = (alias?: string) => `(${standingSql(STANDS, alias)})`;
/** Waiting for a place (issue 20). */
export const WAITING_PLEDGE = standingWhere(["waiting"]);
/**
 * A member (issue 21, DESIGN §1 "personal thresholds"): holds a place and counts toward the goal —
 * firm, or its personal threshold holds. Only members are counted and charged.
 */
export const MEMBER_PLEDGE = standingWhere(COUNTED);
export const memberPledgeWhere = (alias?: string) => `(${standingSql(COUNTED, alias)})`;

// ---- capacity and waitlist (DESIGN §1 "capacity and waitlist") -------------------------------------

/** `pledgeCount`: the commitments holding a place, members or not (issue 21: a condition holds a place). */
export type CapacityFacts = { capacity?: number | null; pledgeCount: number };

/** Places left before the event is full; Infinity without a capacity. */
export const placesLeft = (c: CapacityFacts): number =>
  c.capacity === null || c.capacity === undefined ? Infinity : Math.max(0, c.capacity - c.pledgeCount);

/** Full: a new commitment joins the waitlist. */
export const isFull = (c: CapacityFacts) => placesLeft(c) === 0;

/**
 * An event keeps accepting commitments after its threshold when the organizer chose so (issue 7) or
 * when it has a capacity: up to it, then onto the waitlist.
 */
export const keepsAccepting = (c: { acceptAfterThreshold?: boolean; capacity?: number | null }) =>
  Boolean(c.acceptAfterThreshold) || (c.capacity !== null && c.capacity !== undefined);

/** Promotions stop when the event starts (its deadline when it has no start): the waitlist closes. */
export const waitlistClosesAt = (c: { startsAt?: Date | null; deadline: Date }): Date =>
  c.startsAt ?? c.deadline;
export const waitlistOpen = (c: { startsAt?: Date | null; deadline: Date; status: string }, now: Date) =>
  !inStatuses(CALLED_OFF_STATUSES, c.status) && waitlistClosesAt(c).getTime() > now.getTime();

// ---- the threshold (DESIGN §1 "threshold") --------------------------------------------------------

export type ThresholdFacts = {
  status: string;
  goal: number;
  /** pledges that count: with a saved card for paid events, all for free ones */
  committedCount: number;
  pactType?: string | null;
  /** crowdfunds count dollars: bigint straight from the database (money sums) */
  raisedCents?: number | bigint;
  /** issue 21: the organizer went ahead below the goal */
  goAheadAt?: Date | null;
};

/** What counts toward the goal: people, or whole dollars for a crowdfund. */
export function progress(c: ThresholdFacts): { value: number; goal: number; unit: "people" | "dollars" } {
  if (isCrowdfund(c))
    return { value: Math.floor(Number(c.raisedCents ?? 0) / 100), goal: c.goal, unit: "dollars" };
  return { value: c.committedCount, goal: c.goal, unit: "people" };
}

/**
 * Whether the goal is reached: a confirmed status says so, else the count does. An event the
 * organizer took ahead below its goal (issue 21, "early go-ahead") is confirmed without it.
 */
export function thresholdMet(c: ThresholdFacts): boolean {
  if (isConfirmed(c.status) && !c.goAheadAt) return true;
  if (isCrowdfund(c) && c.raisedCents !== undefined) return Number(c.raisedCents) >= c.goal * 100;
  return c.committedCount >= c.goal;
}

/** The counts a recount (check-and-charge, the manual charge) reads from the pledges themselves. */
export function recountMeetsGoal(
  c: PactKind & { goal: number },
  counts: { all: number; withCard: number; cents: number },
): boolean {
  if (isCrowdfund(c)) return counts.cents >= c.goal * 100;
  return (isFreeEvent(c) ? counts.all : counts.withCard) >= c.goal;
}

// ---- what a surface shows -------------------------------------------------------------------------

/**
 * The phase a page, card or email shows: collecting (open), ended (deadline passed, outcome not yet
 * recorded), confirmed (threshold met, charging), charged (settled), expired, cancelled.
 */
export type Phase = "collecting" | "ended" | "confirmed" | "charged" | "expired" | "cancelled";

export function phaseOf(c: { status: string; deadline: Date }, now: Date): Phase {
  switch (c.status) {
    case "pending":
      return isCollecting(c, now) ? "collecting" : "ended";
    case "funded":
    case "charging":
      return "confirmed";
    case "charged":
    case "expired":
    case "cancelled":
      return c.status;
    default:
      return "collecting";
  }
}

/** The badge a phase shows, and its colour (cards, the event page, the organizer's profile). */
export const PHASE_BADGES: Record<Phase, Badge & { tone: Exclude<Tone, "amber"> }> = {
  collecting: { label: "Active", tone: "brand" },
  ended: { label: "Ended", tone: "slate" },
  confirmed: { label: "Confirmed", tone: "green" },
  charged: { label: "Confirmed", tone: "green" },
  expired: { label: "Expired", tone: "slate" },
  cancelled: { label: "Cancelled", tone: "red" },
};

/** An event's approval until an admin approves it: SPEC's badges PENDING and REJECTED (issue 34.5). */
export const APPROVAL_BADGES = {
  pending: { label: "PENDING", tone: "amber" },
  rejected: { label: "REJECTED", tone: "red" },
} as const satisfies Record<string, Badge>;

/**
 * The one state badge of an event: its approval until approved (a missing approval counts as
 * approved, SPEC §3), then its phase. A rejected event is never "Active".
 */
export function eventBadge(
  c: { status: string; deadline: Date; approvalStatus?: string | null },
  now: Date,
): Badge {
  if (c.approvalStatus === "pending" || c.approvalStatus === "rejected")
    return APPROVAL_BADGES[c.approvalStatus];
  return PHASE_BADGES[phaseOf(c, now)];
}

/**
 * The event page's call to action, the same for every viewer of a phase (the cached copies are
 * shared): commit while it collects (or, confirmed, while it keeps accepting late commitments);
 * "You're in" for someone committed; otherwise the phase says why not.
 */
export type CallToAction =
  "commit" | "waitlist" | "committed" | "waiting" | "closed" | "confirmed" | "cancelled" | "ended";

export const CALL_TO_ACTION_LABELS: Record<CallToAction, string> = {
  commit: "Commit",
  waitlist: "Join the waitlist",
  waiting: "On the waitlist",
  committed: "You're in",
  closed: "Closed",
  confirmed: "Confirmed",
  cancelled: "Cancelled",
  ended: "Ended",
};

export function callToAction(
  c: {
    status: string;
    deadline: Date;
    acceptAfterThreshold?: boolean;
    capacity?: number | null;
    pledgeCount?: number;
  },
  /** openToViewer: approved, or the viewer may commit before approval (admins: lib/access/rules) */
  facts: { committed: boolean; openToViewer: boolean; waiting?: boolean },
  now: Date,
): CallToAction {
  const phase = phaseOf(c, now);
  if (phase === "cancelled") return "cancelled";
  if (phase === "expired" || phase === "ended") return "ended";
  if (facts.waiting) return "waiting";
  if (facts.committed) return "committed";
  if (!facts.openToViewer) return "closed";
  const full = isFull({ capacity: c.capacity, pledgeCount: c.pledgeCount ?? 0 });
  if (phase === "collecting") return full ? "waitlist" : "commit";
  // confirmed or charged: open only to late commitments, and only before the deadline
  if (!keepsAccepting(c) || c.deadline.getTime() <= now.getTime()) return "confirmed";
  return full ? "waitlist" : "commit";
}

/**
 * Joinable (issue 34, said once, here): a newcomer may commit or join the waitlist now — the event
 * collects before its deadline, or it is confirmed and keeps accepting late commitments before it.
 * The commit panel (callToAction "commit" or "waitlist"), the home's Active and ending filters and
 * their SQL all ask this.
 */
export type JoinFacts = {
  status: string;
  deadline: Date;
  acceptAfterThreshold?: boolean;
  capacity?: number | null;
};
export const isJoinableCta = (cta: CallToAction) => cta === "commit" || cta === "waitlist";
export function isJoinable(c: JoinFacts, now: Date): boolean {
  if (c.deadline.getTime() <= now.getTime()) return false;
  return isCollecting(c, now) || (isConfirmed(c.status) && keepsAccepting(c));
}
/** The same rule as a Prisma `where` fragment (plain data: this module imports no Prisma). */
export const joinableWhere = (now: Date) => ({
  deadline: { gt: now },
  OR: [
    { status: { in: [...COLLECTING_STATUSES] } },
    {
      status: { in: [...CONFIRMED_STATUSES] },
      OR: [{ acceptAfterThreshold: true }, { capacity: { not: null } }],
    },
  ],
});

/**
 * When identities revealed "onStart" become public (DESIGN §1): the event's start, or its deadline
 * when it has none. The cached copies' version moves at the same moment.
 */
export const revealAt = (c: { startsAt?: Date | null; deadline: Date }): Date => c.startsAt ?? c.deadline;

/**
 * Whether an event is still current (the organizer's profile lists current and past events apart):
 * collecting or awaiting its result, or decided to happen and not yet over (its end, start or — with
 * neither — deadline still ahead). Expired and cancelled events are past.
 */
export function isCurrentEvent(
  c: { status: string; deadline: Date; startsAt?: Date | null; endsAt?: Date | null },
  now: Date,
): boolean {
  const phase = phaseOf(c, now);
  if (phase === "collecting" || phase === "ended") return true;
  if (phase === "expired" || phase === "cancelled") return false;
  return (c.endsAt ?? c.startsAt ?? c.deadline).getTime() > now.getTime();
}
