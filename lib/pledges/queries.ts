import "server-only";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/access/viewer";
import { anonymousAttendee, numberedAttendee, presentIdentity } from "@/lib/privacy/present";
import { commitBlock, isLateCommit, type CommitBlock } from "@/lib/access/pledge-policy";
import { campaignIdSchema, moreCommitmentsSchema } from "@/lib/pledges/schema";
import { seeCampaign, standingPledgeOf } from "@/lib/campaigns/queries";
import { parseInput } from "@/lib/actions";
import { EVENT_COMMITMENTS_LIMIT } from "@/lib/campaigns/page-sizes";
import { firmNeeded, goAheadFrom } from "@/lib/campaigns/thresholds";
import {
  callToAction,
  isCrowdfund,
  isPaidEvent,
  placesLeft,
  type CallToAction,
} from "@/lib/events/lifecycle";
import { seatChoicesOf } from "@/lib/events/seats";
import { canModerate, isApproved } from "@/lib/access/rules";
import { livePledgeSql } from "@/lib/ledger/pledge-state";
import { memberPledgeSql } from "@/lib/events/sql";
import { MEMBER_PLEDGE } from "@/lib/events/lifecycle";
import {
  depositRules,
  moneySentence,
  priceWithDeposit,
  refundRules,
  whenChargedText,
} from "@/lib/events/money-sentences";
import { formatInZone } from "@/lib/campaigns/event-time";
import { conditionText } from "@/lib/events/story";

/** Safe data for the Commit button and its modals: no identities, nothing the viewer may not know. */
export type CommitPanel = {
  campaignId: string;
  title: string;
  goal: number;
  committedCount: number;
  raisedCents: number;
  status: string;
  deadline: string;
  ticketPriceCents: number;
  /** issue 36: the show-up deposit charged with the ticket (0: none) */
  depositCents: number;
  crowdfund: boolean;
  paid: boolean;
  signedIn: boolean;
  viewerEmail: string | null;
  alreadyCommitted: boolean;
  /** why the viewer cannot commit now (null: they can) */
  block: CommitBlock | null;
  /** the event keeps accepting after its threshold and has met it: a commit now is charged at once */
  lateCommit: boolean;
  /** what the button offers, from the campaign core (issue 16): the same for every viewer of a phase */
  cta: CallToAction;
  /** issue 20: the most people who may be in (null: no limit), and how many wait for a place */
  capacity: number | null;
  waitlistCount: number;
  /** issue 37: the most people this commitment may hold (1: one person), and the places left (null: no limit) */
  maxSeats: number;
  placesLeft: number | null;
  /** issue 21: the organizer may go ahead from `goAheadFrom` people (stated before anyone commits) */
  goAheadFrom: number | null;
  /**
   * issue 34: the money said once (lib/events/money-sentences): the event's money sentence, when a
   * saved card is charged, and the refund rules a backer agrees to.
   */
  money: {
    sentence: string;
    whenCharged: string;
    refunds: string[];
    /** issue 36: "$20.00 ticket + $10.00 show-up deposit, refunded when you check in" and its rules */
    deposit: { line: string; rules: string } | null;
    /**
     * issue 37: `sentence` and `whenCharged` for a commitment of 2, 3, … people (index 0 is 2) on a paid
     * event, whose group pays seats × price; empty where the amount does not depend on the people.
     */
    bySeats: { sentence: string; whenCharged: string }[];
  };
  /**
   * issue 34: the viewer holds a place on a condition that does not hold yet: not "You're in" but
   * "Counts when 8 are in · 6 are in now" (lib/events/story conditionText). Only on a page rendered
   * for this viewer (lib/cache/visitor-version sends them to the per-request page).
   */
  condition: { minPeople: number; text: string } | null;
};

export async function getCommitPanel(
  campaignId: string,
  viewer: Viewer | null,
  now = new Date(),
): Promise<CommitPanel | null> {
  if (!campaignIdSchema.safeParse(campaignId).success) return null;
  const c = await seeCampaign(campaignId, viewer);
  if (!c) return null;
  const standing = viewer ? await standingPledgeOf(campaignId, viewer.id) : null;
  const committed = standing !== null && !standing.waiting;
  const waiting = standing?.waiting === true;
  const alreadyCommitted = committed || waiting;
  return {
    campaignId: c.id,
    title: c.title,
    goal: c.goal,
    committedCount: c.committedCount,
    raisedCents: c.raisedCents,
    status: c.status,
    deadline: c.deadline.toISOString(),
    ticketPriceCents: c.ticketPriceCents,
    depositCents: c.depositCents,
    crowdfund: isCrowdfund(c),
    paid: isPaidEvent(c),
    signedIn: Boolean(viewer),
    viewerEmail: viewer?.email || null,
    alreadyCommitted,
    block: commitBlock(viewer, c, alreadyCommitted, now),
    lateCommit: isLateCommit(c),
    cta: callToAction(
      c,
      {
        committed,
        waiting,
        openToViewer: isApproved(c) || Boolean(viewer && canModerate(viewer)),
      },
      now,
    ),
    capacity: c.capacity,
    waitlistCount: c.waitlistCount,
    maxSeats: seatChoicesOf(c),
    placesLeft: c.capacity === null ? null : placesLeft(c),
    goAheadFrom: c.earlyGoAhead && !isCrowdfund(c) ? goAheadFrom(c) : null,
    money: {
      sentence: moneySentence(c, now, { deadline: formatInZone(c.deadline, c.timeZone) }),
      whenCharged: whenChargedText(c),
      refunds: refundRules(c),
      deposit: depositOf(c),
      bySeats: isPaidEvent(c)
        ? Array.from({ length: Math.max(0, seatChoicesOf(c) - 1) }, (_, i) => ({
            sentence: moneySentence(c, now, { deadline: formatInZone(c.deadline, c.timeZone), seats: i + 2 }),
            whenCharged: whenChargedText(c, "Your card", i + 2),
          }))
        : [],
    },
    condition:
      standing && standing.condition !== null
        ? { minPeople: standing.condition, text: conditionText(standing.condition, c.committedCount) }
        : null,
  };
}

/** The deposit's line and rules, said before anyone commits (lib/events/money-sentences). */
function depositOf(c: Parameters<typeof depositRules>[0]): CommitPanel["money"]["deposit"] {
  const line = priceWithDeposit(c);
  const rules = depositRules(c);
  return line && rules ? { line, rules } : null;
}

/** One commitment as the event page shows it: identity already resolved by the privacy rules. */
export type PublicCommitment = {
  key: string;
  label: string;
  anonymous: boolean;
  isViewer: boolean;
  createdAt: string;
  amountCents: number;
  amount: number;
  verified: boolean;
  paymentMethod: string;
  /** issue 37: the people this commitment holds that are in (1: one person) */
  seats: number;
};

export { EVENT_COMMITMENTS_LIMIT };

/**
 * The event page's commitments, newest first (at most `limit`), and the total. Hidden attendees
 * come back as "Anonymous Attendee #n" without user id, name or email. n is the pledge's position
 * in pledge order (oldest = #1, ties by pledge id, as lib/privacy numbers them); one pledge per
 * user per campaign makes that the person's number everywhere on the page.
 */
export async function listEventCommitments(
  campaignId: string,
  viewer: Viewer | null,
  {
    now = new Date(),
    limit = EVENT_COMMITMENTS_LIMIT,
    offset = 0,
  }: { now?: Date; limit?: number; offset?: number } = {},
): Promise<{ items: PublicCommitment[]; total: number }> {
  if (!campaignIdSchema.safeParse(campaignId).success) return { items: [], total: 0 };
  const campaign = await seeCampaign(campaignId, viewer);
  if (!campaign) return { items: [], total: 0 };
  // One statement, so one snapshot: the count and the page agree (the numbers match the rows)
  // even while people commit. Served by the (campaignId, createdAt, id) index; no transaction.
  const rows = await db.$queryRaw<
    Array<{
      id: string;
      userId: string;
      createdAt: Date;
      attendeeNumber: number | null;
      amount: number;
      amountCents: number;
      verified: boolean;
      paymentMethod: string;
      name: string | null;
      email: string;
      seats: number;
      total: number;
    }>
  >`
    SELECT p.id, p."userId", p."createdAt", p."attendeeNumber", p.amount, p."amountCents", p.verified, p."paymentMethod", u.name, u.email,
           -- issue 37: a group is one row, its holder's own seat, with the seats of it that are in
           CASE WHEN p."groupId" IS NULL THEN 1 ELSE (
             SELECT count(*) FROM "Pledge" g WHERE g."groupId" = p."groupId" AND g."userId" = p."userId" AND ${memberPledgeSql("g")}
           ) END::int AS seats,
           (SELECT count(*) FROM "Pledge" WHERE "campaignId" = ${campaignId} AND ${memberPledgeSql()} AND "guestSlot" = 0)::int AS total
    FROM "Pledge" p JOIN "User" u ON u.id = p."userId"
    WHERE p."campaignId" = ${campaignId} AND ${memberPledgeSql("p")} AND p."guestSlot" = 0
    ORDER BY p."createdAt" DESC, p.id DESC
    LIMIT ${limit} OFFSET ${offset}`;
  const total =
    rows[0]?.total ??
    (offset === 0 ? 0 : await db.pledge.count({ where: { campaignId, guestSlot: 0, ...MEMBER_PLEDGE } }));
  const items = rows.map((p, i): PublicCommitment => {
    // stored at commit (a trigger), never renumbered
    const n = p.attendeeNumber ?? total - offset - i;
    // DESIGN §1 "public names": the presenter decides what this viewer sees of the person.
    const person = presentIdentity(
      viewer,
      campaign,
      now,
      { key: p.id, userId: p.userId, name: p.name, email: p.email },
      { hidden: anonymousAttendee(n), unnamed: numberedAttendee(n) },
    );
    return {
      key: person.key,
      label: person.label,
      anonymous: person.anonymous,
      isViewer: person.isViewer,
      createdAt: p.createdAt.toISOString(),
      amountCents: p.amountCents,
      amount: p.amount,
      verified: p.verified,
      paymentMethod: p.paymentMethod,
      seats: p.seats,
    };
  });
  return { items, total };
}

/** "Show more" on the event page's commitments: the next page after the first `offset`. */
export async function listMoreCommitments(
  viewer: Viewer | null,
  input: unknown,
): Promise<{ items: PublicCommitment[]; total: number }> {
  const { campaignId, offset } = parseInput(moreCommitmentsSchema, input);
  return listEventCommitments(campaignId, viewer, { offset });
}

/**
 * The cascade as the public may see it (issue 21, DESIGN §1 "personal thresholds"): aggregates only
 * — how many are in (members), how many more join once a number is reached, how many firm
 * commitments would tip it — with any count under 3 suppressed, never who is conditional. Null for
 * an event nobody committed to with a condition.
 */
export type CascadeView = {
  members: number;
  goal: number;
  /** the next step: `count` more are in once `at` are (null when suppressed or none) */
  next: { at: number; count: number } | null;
  /** conditional commitments not counted yet (null when fewer than 3: suppressed) */
  waiting: number | null;
  /** firm commitments that would bring the members to the goal, the cascade included */
  firmNeeded: number;
};

/** Counts under this are not shown: they could point at a person. */
const SUPPRESS_BELOW = 3;

export async function getCascade(campaignId: string): Promise<CascadeView | null> {
  const c = await db.campaign.findUnique({
    where: { id: campaignId },
    select: { hasConditions: true, goal: true, committedCount: true, status: true },
  });
  if (!c?.hasConditions) return null;
  const rows = await db.$queryRaw<{ n: number; member: boolean; count: number }[]>`
    SELECT COALESCE("minPeople", 1) AS n, ("memberSince" IS NOT NULL) AS member, count(*)::int AS count
    FROM "Pledge" WHERE "campaignId" = ${campaignId} AND ${livePledgeSql()} GROUP BY 1, 2`;
  const outside = rows.filter((r) => !r.member).sort((a, b) => a.n - b.n);
  const waiting = outside.reduce((s, r) => s + r.count, 0);
  // members count as firm: their conditions hold (or, after the tip, are settled)
  const hist = new Map<number, number>([[1, c.committedCount]]);
  for (const r of outside) hist.set(r.n, (hist.get(r.n) ?? 0) + r.count);
  // the next step: the conditions up to some threshold N (C of them) all hold once N - C others are
  // in — the soonest such step is what the page says ("30 more are in once 60 are")
  let next: { at: number; count: number } | null = null;
  let upTo = 0;
  for (const r of outside) {
    upTo += r.count;
    const at = Math.max(c.committedCount + 1, r.n - upTo);
    if (!next || at < next.at) next = { at, count: upTo };
  }
  const shown = waiting >= SUPPRESS_BELOW;
  return {
    members: c.committedCount,
    goal: c.goal,
    next: shown && next && next.count >= SUPPRESS_BELOW ? next : null,
    waiting: shown ? waiting : null,
    firmNeeded: shown ? firmNeeded(hist, c.goal) : Math.max(0, c.goal - c.committedCount),
  };
}
