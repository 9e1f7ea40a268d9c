import "server-only";
import type { OwnPayment } from "@/lib/charging/recovery";
import { Prisma, queryOn } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Viewer } from "@/lib/access/viewer";
import type { CardSummary } from "@/lib/payments/types";
import { parseInput } from "@/lib/actions";
import { commitInputSchema, conditionRefusal, CROWDFUND_MIN_CENTS } from "@/lib/pledges/schema";
import { COMMIT_MESSAGES, commitBlock, isLateCommit } from "@/lib/access/pledge-policy";
import { countsTowardGoal, isCrowdfund, isPaidEvent } from "@/lib/events/lifecycle";
import { memberCount } from "@/lib/campaigns/thresholds";
import { canSeeEvent } from "@/lib/access/rules";
import { livePledgeSql, standingPledgeSql } from "@/lib/events/sql";
import { groupFits, seatsRefusal } from "@/lib/events/seats";

/**
 * The commit decision (SPEC §4 commit flow, DESIGN §1 threshold): reads the campaign row a commit
 * is decided on and decides, purely, whether and how the viewer commits. lib/pledges/service.ts
 * writes what it decides.
 */
export type CommitResult = {
  pledgeId: string;
  campaignId: string;
  /** what counts toward the goal: attendees, or dollars for a crowdfund */
  committedCount: number;
  goal: number;
  remaining: number;
  thresholdMet: boolean;
  /** true for exactly one commit per campaign: the one that crossed the threshold */
  crossed: boolean;
  /** a commit after the threshold (acceptAfterThreshold, or a capacity not yet reached): charged at once */
  late: boolean;
  /** issue 20: the event was full: the commitment waits in line (nothing counted or charged) */
  waitlisted: boolean;
  /** its place in line (1 = next), when waitlisted */
  position: number | null;
  /** issue 21: counted toward the goal now (a commitment whose condition does not hold yet is not) */
  member: boolean;
  /** issue 21: "only count me if at least N people are in" */
  minPeople: number | null;
  /** issue 37: the people this commitment holds (its seats), the committer included */
  seats: number;
  /** issue 37: of them, the seats still waiting for a place (a group promoted in part at commit) */
  seatsWaiting: number;
  status: "pending" | "funded" | "charged";
  unit: "people" | "dollars";
  free: boolean;
  /** false when the crossing could not queue charging at once (the sweeper will); SPEC §8 auto-charge failure */
  chargingQueued: boolean;
  /** a paid commit at or after the tip: its own charge, made at once (lib/charging/recovery chargeOwnPledgeNow) */
  ownPayment?: OwnPayment | null;
};

type LockedCampaign = {
  version: string;
  id: string;
  goal: number;
  status: string;
  approvalStatus: string;
  deadline: Date;
  creatorId: string;
  ticketPriceCents: number;
  /** issue 36: a show-up deposit makes even a free event take a card */
  depositCents: number;
  depositGraceHours: number;
  pactType: string | null;
  paymentMethod: string | null;
  committedCount: number;
  pledgeCount: number;
  raisedCents: number;
  acceptAfterThreshold: boolean;
  capacity: number | null;
  waitlistCount: number;
  /** issue 37: the most seats one commitment may hold */
  maxSeats: number;
  hasConditions: boolean;
  /** issue 21: [threshold, count] of the commitments holding a place, when the event has conditions */
  thresholds: [number, number][] | null;
  title: string;
  description: string;
  alreadyCommitted: boolean;
  userEmail: string | null;
  userName: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
  timeZone: string;
  venue: string | null;
  address: string | null;
  onlineUrl: string | null;
  area: string | null;
  addressPrivate: boolean;
  calendarSequence: number;
  coverId: string | null;
};

export const fail = (key: keyof typeof COMMIT_MESSAGES, code: AppError["code"]) =>
  new AppError(code, COMMIT_MESSAGES[key]);

const BLOCK_CODES = {
  signedOut: "UNAUTHENTICATED",
  alreadyCommitted: "CONFLICT",
  notApproved: "FORBIDDEN",
  closed: "CONFLICT",
  ended: "CONFLICT",
} as const;

export type Card = CardSummary | null;
/**
 * What a commit with a card learned before its event's turn: whether the event is paid, the card the
 * provider confirmed, and the row it read (the first one-statement attempt writes against it: its
 * version is checked when it writes, so a row moved meanwhile costs a fresh read, never a wrong write).
 */
export type Pre = { paid: boolean; crowdfund: boolean; card: Card; row?: LockedCampaign } | null;

/**
 * The campaign as a commit decides on it, the viewer's existing pledge and their address for the
 * email, as columns of the campaign `c`; `version` is the row version (xmin), which every update of
 * the row moves. The locked commit reads them with the row lock (withEvent's `read`).
 */
export const commitColumns = (viewerId: string) => Prisma.sql`
    c.xmin::text AS version, c.id, c.goal, c.status::text AS status, c."approvalStatus"::text AS "approvalStatus",
           c.deadline, c."creatorId", c."ticketPriceCents", c."depositCents", c."depositGraceHours", c."pactType"::text AS "pactType", c."paymentMethod",
           c."committedCount", c."pledgeCount", c."raisedCents"::float8 AS "raisedCents", c."acceptAfterThreshold", c.capacity, c."waitlistCount", c."maxSeats", c."hasConditions", c.title, c.description,
           c."startsAt", c."endsAt", c."timeZone", c.venue, c.address, c."onlineUrl", c.area, c."addressPrivate", c."calendarSequence",
           c."coverId",
           EXISTS (SELECT 1 FROM "Pledge" p WHERE p."campaignId" = c.id AND p."userId" = ${viewerId} AND ${standingPledgeSql("p")}) AS "alreadyCommitted",
           (SELECT u.email FROM "User" u WHERE u.id = ${viewerId}) AS "userEmail",
           (SELECT u.name FROM "User" u WHERE u.id = ${viewerId}) AS "userName",
           -- issue 21: the personal thresholds of the commitments holding a place, as of this version
           -- of the row (every change of them moves the row: counters or the pledge trigger)
           CASE WHEN c."hasConditions" THEN (
             SELECT json_agg(json_build_array(h.n, h.count)) FROM (
               SELECT COALESCE(p."minPeople", 1) AS n, count(*)::int AS count FROM "Pledge" p
               WHERE p."campaignId" = c.id AND ${livePledgeSql("p")} GROUP BY 1) h
           ) END AS thresholds`;

export type { LockedCampaign };

/** The commit columns without a lock (the one-statement commit checks the version when it writes). */
export async function readForCommit(client: Prisma.TransactionClient, campaignId: string, viewerId: string) {
  const rows = await queryOn<LockedCampaign>(client)`
    SELECT ${commitColumns(viewerId)} FROM "Campaign" c WHERE c.id = ${campaignId}`;
  return rows[0] ?? null;
}

type CommitInput = ReturnType<typeof parseCommitInput>;

/** The card the commit carries must match the row: a paid event needs one (SPEC §4 commit flow). */
function cardFor(c: LockedCampaign, pre: Pre) {
  const paid = isPaidEvent(c);
  const crowdfund = isCrowdfund(c);
  if (pre) {
    // The price or type may have changed since the snapshot; the card decision must match the row.
    if (paid !== pre.paid || crowdfund !== pre.crowdfund) throw fail("saveFailed", "CONFLICT");
  } else if (paid) {
    throw fail("paymentRequired", "BAD_REQUEST");
  }
  return { paid, crowdfund, card: pre?.card ?? null };
}

/** What the commitment is for, in cents: the ticket price, or a crowdfund's chosen amount. */
function amountFor(c: LockedCampaign, input: CommitInput, crowdfund: boolean): number {
  if (!crowdfund) return c.ticketPriceCents;
  const minimum = CROWDFUND_MIN_CENTS; // DESIGN "pact types": the ticket price is not used for crowdfunds
  if (input.amount === undefined)
    throw new AppError("BAD_REQUEST", "Please enter an amount", { amount: "Please enter an amount" });
  if (input.amount < minimum) {
    const text = `Amount must be at least $${(minimum / 100).toFixed(2)}`;
    throw new AppError("BAD_REQUEST", text, { amount: text });
  }
  return input.amount;
}

/**
 * A personal threshold (issue 21): pactions only, at most the capacity; "at least 1" is no condition.
 * Issue 34: none on an event already going ahead, none at or below the members now (it would hold at
 * once) — decided on the row this commit writes against (conditionRefusal, as the dialog asks it).
 */
function personalThreshold(c: LockedCampaign, input: CommitInput, crowdfund: boolean): number | null {
  if (input.minPeople === undefined) return null;
  const refused = conditionRefusal(input.minPeople, { ...c, crowdfund });
  if (refused) throw new AppError("BAD_REQUEST", refused, { minPeople: refused });
  return input.minPeople > 1 ? input.minPeople : null;
}

/**
 * What counts toward the goal after this commit, and whether its backer is a member. Threshold
 * rule (SPEC §4): paid events count pledges with a saved card (every paid pledge carries one,
 * checked above), free events count all; a crowdfund counts dollars. Personal thresholds while
 * collecting (issue 21): the members with this commitment, from the thresholds read with the row —
 * the commit that writes them checks the row is still that version. (After the tip membership is
 * sticky: the locked path recounts.)
 */
function countAfter(
  c: LockedCampaign,
  card: Card,
  minPeople: number | null,
  collectingRecount: boolean,
  seats: number,
) {
  const counts = countsTowardGoal(c, Boolean(card)) && minPeople === null;
  if (!collectingRecount)
    return { committedCount: c.committedCount + (counts ? seats : 0), member: minPeople === null };
  // no condition on the event yet: everyone holding a place is a member without one
  const hist = new Map<number, number>(
    c.thresholds ? c.thresholds.map(([n, k]) => [n, k]) : [[1, c.committedCount]],
  );
  const mine = minPeople ?? 1;
  // issue 37: a group's seats are its weight (each seat is a commitment holding a place)
  hist.set(mine, (hist.get(mine) ?? 0) + seats);
  const committedCount = memberCount(hist);
  return { committedCount, member: mine <= committedCount };
}

/** Issue 37: the seats asked for, within the event's M and capacity (lib/events/seats). */
function groupSeats(c: LockedCampaign, input: CommitInput): number {
  const refused = seatsRefusal(input.seats, c);
  if (refused) throw new AppError("BAD_REQUEST", refused, { seats: refused });
  return input.seats;
}

/**
 * Whether and how `viewer` commits to `c` (the SPEC's refusals, in the order the user sees them:
 * not found, own pledge, card, amount, then the event's state), and the counters after the commit.
 * Pure: both write paths below call it with the row they write against.
 */
export function decide(viewer: Viewer, c: LockedCampaign | null, input: CommitInput, pre: Pre, now: Date) {
  if (!c || !canSeeEvent(viewer, c)) throw fail("notFound", "NOT_FOUND");
  if (c.alreadyCommitted) throw fail("alreadyCommitted", "CONFLICT");
  const { paid, crowdfund, card } = cardFor(c, pre);
  const amountCents = amountFor(c, input, crowdfund);
  const block = commitBlock(viewer, c, c.alreadyCommitted, now);
  if (block) throw fail(block, BLOCK_CODES[block]);

  const amount = crowdfund ? Math.max(1, Math.floor(amountCents / 100)) : 1;
  const pledgeCents = paid || crowdfund ? amountCents : 0;
  const minPeople = personalThreshold(c, input, crowdfund);
  const seats = groupSeats(c, input);
  const partialOk = seats > 1 && input.partialOk;
  const base = { c, paid, crowdfund, card, amount, pledgeCents, minPeople, seats, partialOk };
  // A full event (issue 20): the commitment joins the waitlist — counted nowhere, charged never
  // unless a place opens (lib/campaigns/waitlist.ts promotes in commit order). Issue 37: a group
  // that does not fit the places left waits as a group.
  if (!groupFits(c, seats)) {
    return {
      ...base,
      committedCount: c.committedCount,
      raisedCents: c.raisedCents,
      progress: crowdfund ? Math.floor(c.raisedCents / 100) : c.committedCount,
      late: false,
      crossed: false,
      confirmed: false,
      waitlisted: true,
      position: (c.waitlistCount + 1) as number | null,
      recount: false,
      counted: false,
      member: false,
    };
  }
  // with a condition anywhere on the event, the commit recounts the members under the lock
  const recount = minPeople !== null || c.hasConditions;
  const collectingRecount = recount && c.status === "pending" && !crowdfund;
  const { committedCount, member } = countAfter(c, card, minPeople, collectingRecount, seats);
  const raisedCents = c.raisedCents + pledgeCents * seats;
  const progress = crowdfund ? Math.floor(raisedCents / 100) : committedCount;
  // A late commit (the event keeps accepting after its threshold) crosses nothing: the campaign is
  // already confirmed; it is charged at once (free: confirmed on arrival; paid: the charging job).
  const late = isLateCommit(c);
  const crossed = !late && (!recount || collectingRecount) && progress >= c.goal;
  return {
    ...base,
    committedCount,
    raisedCents,
    progress,
    late,
    crossed,
    confirmed: late && !paid,
    waitlisted: false,
    position: null as number | null,
    recount,
    /** the members were recounted here (collecting): the one-statement commit can write them */
    counted: collectingRecount,
    member,
  };
}
export type Decision = ReturnType<typeof decide>;

export const parseCommitInput = (raw: unknown) => parseInput(commitInputSchema, raw);

export function resultOf(d: Decision, pledgeId: string, status: CommitResult["status"]): CommitResult {
  return {
    pledgeId,
    campaignId: d.c.id,
    committedCount: d.progress,
    goal: d.c.goal,
    remaining: Math.max(0, d.c.goal - d.progress),
    thresholdMet: d.crossed || d.late,
    crossed: d.crossed,
    late: d.late,
    waitlisted: d.waitlisted,
    position: d.position,
    member: d.member,
    minPeople: d.minPeople,
    seats: d.seats,
    seatsWaiting: d.waitlisted ? d.seats : 0,
    status,
    unit: d.crowdfund ? "dollars" : "people",
    free: !d.paid,
    chargingQueued: (d.crossed || d.late) && !d.paid,
  };
}

/** Per person of a group commit: a standing pledge already, and their address for the email. */
export type BatchViewers = Record<
  string,
  [alreadyCommitted: boolean, email: string | null, name: string | null]
>;

/**
 * The commit columns for a group of commits to one event (lib/pledges/service commitGroup), in one
 * unlocked read: the row as readForCommit reads it, and each person's own columns in `viewers`.
 */
export async function readForBatch(
  client: Prisma.TransactionClient,
  campaignId: string,
  viewerIds: string[],
) {
  const rows = await queryOn<LockedCampaign & { viewers: BatchViewers | null }>(client)`
    SELECT ${commitColumns(viewerIds[0] ?? "")},
      (SELECT json_object_agg(v.id, json_build_array(
          EXISTS (SELECT 1 FROM "Pledge" p WHERE p."campaignId" = c.id AND p."userId" = v.id AND ${standingPledgeSql("p")}),
          u.email, u.name))
       FROM json_array_elements_text(${JSON.stringify(viewerIds)}::json) AS v(id) LEFT JOIN "User" u ON u.id = v.id
      ) AS viewers
    FROM "Campaign" c WHERE c.id = ${campaignId}`;
  return rows[0] ?? null;
}
