import "server-only";
import { contributorText } from "@/lib/privacy/present";
import { randomBytes } from "node:crypto";
import { db, Prisma } from "@/lib/db";
import { AppError, isAppError } from "@/lib/errors";
import type { Viewer } from "@/lib/auth/viewer";
import { getGateway } from "@/lib/payments/gateway";
import { type CardSummary } from "@/lib/payments/types";
import { requestCharging } from "@/lib/charging/service";
import { queueConfirmedEmails } from "@/lib/email/notifications";
import { commitReceivedEmail } from "@/lib/email/templates";
import { kickEmailSender, outboxColumns, queueEmail } from "@/lib/email/service";
import { parseInput } from "@/lib/actions";
import { commitInputSchema, CROWDFUND_MIN_CENTS } from "@/lib/pledges/schema";
import { COMMIT_MESSAGES, commitBlock, isLateCommit } from "@/lib/pledges/policy";
import { consume, secondsText } from "@/lib/rate-limit/service";
import { isCrowdfund, isPaidEvent } from "@/lib/campaigns/lifecycle";
import { canSeeEvent } from "@/lib/access/rules";
import { confirmFreePledges } from "@/lib/charging/pledge-state";

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
  /** a commit after the threshold (acceptAfterThreshold): charged at once */
  late: boolean;
  status: "pending" | "funded" | "charged";
  unit: "people" | "dollars";
  free: boolean;
  /** false when the crossing could not queue charging at once (the sweeper will); SPEC §8 auto-charge failure */
  chargingQueued: boolean;
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
  pactType: string | null;
  paymentMethod: string | null;
  committedCount: number;
  pledgeCount: number;
  raisedCents: number;
  acceptAfterThreshold: boolean;
  title: string;
  description: string;
  alreadyCommitted: boolean;
  userEmail: string | null;
  userName: string | null;
};

/** At most 20 commit attempts per user per minute (a person commits once per event). */
export const COMMIT_RATE_LIMIT = { limit: 20, windowMs: 60_000 } as const;
export const commitTooFastText = (wait: string) =>
  `You're committing too quickly. Please wait ${wait} and try again.`;

const fail = (key: keyof typeof COMMIT_MESSAGES, code: AppError["code"]) =>
  new AppError(code, COMMIT_MESSAGES[key]);

const BLOCK_CODES = {
  signedOut: "UNAUTHENTICATED",
  alreadyCommitted: "CONFLICT",
  notApproved: "FORBIDDEN",
  closed: "CONFLICT",
  ended: "CONFLICT",
} as const;

/**
 * Commits to one campaign run one at a time per app instance. The row lock serialises them anyway
 * (and still does across instances); queuing here, in memory, keeps a burst on one popular event
 * from parking every pooled connection on that lock, which starved other requests and made commits
 * fail with pool timeouts (seen with 200 concurrent commits on a 10-connection pool).
 */
const commitQueues = new Map<string, Promise<unknown>>();
function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = commitQueues.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  commitQueues.set(key, tail);
  void tail.then(() => {
    if (commitQueues.get(key) === tail) commitQueues.delete(key);
  });
  return run;
}

/**
 * At most this many commits per instance do their reads before the write (rate limit; for a paid
 * commit also campaign, existing pledge, card check) at once; the rest wait in memory. Without it, 200 simultaneous
 * commits queued hundreds of queries on the 10-connection pool and some failed with the pool's
 * connect timeout on a busy machine, and page views starved meanwhile.
 */
const COMMIT_SLOTS = Math.max(2, Math.floor(Number(process.env.DATABASE_POOL_SIZE || 10) / 2));
let slotsInUse = 0;
const slotWaiters: Array<() => void> = [];
async function withCommitSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (slotsInUse >= COMMIT_SLOTS) await new Promise<void>((resolve) => slotWaiters.push(resolve));
  else slotsInUse++;
  try {
    return await fn();
  } finally {
    // Hand the slot straight to the next waiter (slotsInUse unchanged), or free it.
    const next = slotWaiters.shift();
    if (next) next();
    else slotsInUse--;
  }
}

const isUniqueViolation = (e: unknown) =>
  (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") ||
  /23505|Unique constraint/i.test(String((e as Error)?.message));

/**
 * A new row id in the shape of Prisma's cuid() (25 lowercase letters and digits, a time prefix then
 * randomness), for the raw inserts below, which Prisma's client-side id default does not reach.
 */
function newId(): string {
  const bytes = randomBytes(15);
  let rand = "";
  for (const b of bytes) rand += (b % 36).toString(36);
  return `c${Date.now().toString(36).padStart(9, "0")}${rand}`;
}

type Card = CardSummary | null;
type Pre = { paid: boolean; crowdfund: boolean; card: Card } | null;

/**
 * The campaign as a commit decides on it, the viewer's existing pledge and their address for the
 * email, in one statement; `version` is the row version (xmin), which every update of the row moves.
 * With `lock`, the row is locked FOR UPDATE (inside the commit transaction).
 */
async function readForCommit(
  client: Prisma.TransactionClient,
  campaignId: string,
  viewerId: string,
  lock: boolean,
) {
  const rows = await client.$queryRaw<LockedCampaign[]>`
    SELECT c.xmin::text AS version, c.id, c.goal, c.status::text AS status, c."approvalStatus"::text AS "approvalStatus",
           c.deadline, c."creatorId", c."ticketPriceCents", c."pactType"::text AS "pactType", c."paymentMethod",
           c."committedCount", c."pledgeCount", c."raisedCents"::float8 AS "raisedCents", c."acceptAfterThreshold", c.title, c.description,
           EXISTS (SELECT 1 FROM "Pledge" p WHERE p."campaignId" = c.id AND p."userId" = ${viewerId}) AS "alreadyCommitted",
           (SELECT u.email FROM "User" u WHERE u.id = ${viewerId}) AS "userEmail",
           (SELECT u.name FROM "User" u WHERE u.id = ${viewerId}) AS "userName"
    FROM "Campaign" c WHERE c.id = ${campaignId} ${lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`;
  return rows[0] ?? null;
}

/**
 * Whether and how `viewer` commits to `c` (the SPEC's refusals, in the order the user sees them:
 * not found, own pledge, card, amount, then the event's state), and the counters after the commit.
 * Pure: both write paths below call it with the row they write against.
 */
function decide(
  viewer: Viewer,
  c: LockedCampaign | null,
  input: ReturnType<typeof parseCommitInput>,
  pre: Pre,
  now: Date,
) {
  if (!c || !canSeeEvent(viewer, c)) throw fail("notFound", "NOT_FOUND");
  if (c.alreadyCommitted) throw fail("alreadyCommitted", "CONFLICT");
  const paid = isPaidEvent(c);
  const crowdfund = isCrowdfund(c);
  if (pre) {
    // The price or type may have changed since the snapshot; the card decision must match the row.
    if (paid !== pre.paid || crowdfund !== pre.crowdfund) throw fail("saveFailed", "CONFLICT");
  } else if (paid) {
    throw fail("paymentRequired", "BAD_REQUEST");
  }
  const card = pre?.card ?? null;
  let amountCents = c.ticketPriceCents;
  if (crowdfund) {
    const minimum = CROWDFUND_MIN_CENTS; // DESIGN "pact types": the ticket price is not used for crowdfunds
    if (input.amount === undefined)
      throw new AppError("BAD_REQUEST", "Please enter an amount", { amount: "Please enter an amount" });
    if (input.amount < minimum) {
      const text = `Amount must be at least $${(minimum / 100).toFixed(2)}`;
      throw new AppError("BAD_REQUEST", text, { amount: text });
    }
    amountCents = input.amount;
  }
  const block = commitBlock(viewer, c, c.alreadyCommitted, now);
  if (block) throw fail(block, BLOCK_CODES[block]);

  const amount = crowdfund ? Math.max(1, Math.floor(amountCents / 100)) : 1;
  const pledgeCents = paid || crowdfund ? amountCents : 0;
  // Threshold rule (SPEC §4): paid events count pledges with a saved card (every paid pledge
  // carries one, checked above), free events count all; a crowdfund counts dollars.
  const counts = !paid || Boolean(card);
  const committedCount = c.committedCount + (counts ? 1 : 0);
  const raisedCents = c.raisedCents + pledgeCents;
  const progress = crowdfund ? Math.floor(raisedCents / 100) : committedCount;
  // A late commit (the event keeps accepting after its threshold) crosses nothing: the campaign is
  // already confirmed; it is charged at once (free: confirmed on arrival; paid: the charging job).
  const late = isLateCommit(c);
  const crossed = !late && progress >= c.goal;
  return {
    c,
    paid,
    crowdfund,
    card,
    amount,
    pledgeCents,
    committedCount,
    raisedCents,
    progress,
    late,
    crossed,
    confirmed: late && !paid,
  };
}
type Decision = ReturnType<typeof decide>;

const parseCommitInput = (raw: unknown) => parseInput(commitInputSchema, raw);

/** The backer's confirmation (DESIGN §1: queued in the commit's own transaction), for the row after the commit. */
function commitEmail(viewer: Viewer, d: Decision, pledgeId: string) {
  const { c } = d;
  const campaign = {
    id: c.id,
    title: c.title,
    description: c.description,
    deadline: c.deadline,
    goal: c.goal,
    committedCount: d.committedCount,
    ticketPriceCents: c.ticketPriceCents,
    pactType: c.pactType,
  };
  return commitReceivedEmail(
    campaign,
    { userId: viewer.id, email: c.userEmail ?? viewer.email, name: c.userName },
    pledgeId,
    d.pledgeCents,
  );
}

function resultOf(d: Decision, pledgeId: string, status: CommitResult["status"]): CommitResult {
  return {
    pledgeId,
    campaignId: d.c.id,
    committedCount: d.progress,
    goal: d.c.goal,
    remaining: Math.max(0, d.c.goal - d.progress),
    thresholdMet: d.crossed || d.late,
    crossed: d.crossed,
    late: d.late,
    status,
    unit: d.crowdfund ? "dollars" : "people",
    free: !d.paid,
    chargingQueued: (d.crossed || d.late) && !d.paid,
  };
}

/**
 * The common commit — one that neither crosses the threshold nor arrives late — in ONE statement,
 * so one round trip and one transaction: it locks the campaign row only if it is still the version
 * the decision was made on (compare-and-set on xmin; a concurrent commit, edit or comment moves it),
 * inserts the pledge, updates the counters and writes the confirmation email to the outbox.
 * Returns null when the row changed meanwhile (the caller decides again on the new row).
 */
async function commitInOneStatement(
  viewer: Viewer,
  d: Decision,
  version: string,
  now: Date,
): Promise<CommitResult | null> {
  const pledgeId = newId();
  const e = outboxColumns(commitEmail(viewer, d, pledgeId));
  const { c, card } = d;
  const rows = await db.$queryRaw<{ locked: boolean; pledgeId: string | null }[]>`
    WITH c AS (
      SELECT id FROM "Campaign" WHERE id = ${c.id} AND xmin::text = ${version} FOR UPDATE
    ), p AS (
      INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "paymentMethodId", "cardBrand",
                            "cardLast4", "paymentMethod", "createdAt")
      SELECT ${pledgeId}, c.id, ${viewer.id}, ${d.amount}, ${d.pledgeCents}, ${contributorText(viewer.name)},
             ${card?.paymentMethodId ?? null}, ${card?.brand ?? null}, ${card?.last4 ?? null},
             ${c.paymentMethod?.trim() || "Not specified"}, ${now} FROM c
      ON CONFLICT ("campaignId", "userId") DO NOTHING
      RETURNING id, amount
    ), u AS (
      UPDATE "Campaign" SET "committedCount" = ${d.committedCount}, "pledgeCount" = "pledgeCount" + 1,
             "raisedCents" = ${d.raisedCents}, "currentAmount" = "currentAmount" + (SELECT amount FROM p)
      WHERE id IN (SELECT id FROM c) AND EXISTS (SELECT 1 FROM p)
      RETURNING id
    ), o AS (
      INSERT INTO "EmailOutbox" (id, "dedupeKey", "toEmail", subject, text, html, attachments, status, attempts, "createdAt")
      SELECT ${newId()}, ${e.dedupeKey}, ${e.toEmail}, ${e.subject}, ${e.text}, ${e.html},
             ${e.attachments === null ? null : JSON.stringify(e.attachments)}::jsonb, 'pending', 0, ${now} FROM p
      ON CONFLICT ("dedupeKey") DO NOTHING
      RETURNING id
    )
    SELECT EXISTS (SELECT 1 FROM c) AS locked, (SELECT id FROM p) AS "pledgeId",
           (SELECT count(*) FROM u)::int AS updated, (SELECT count(*) FROM o)::int AS queued`;
  const row = rows[0];
  if (!row?.locked) return null;
  // The row was current and locked: the only way not to insert is the unique (campaignId, userId) index.
  if (!row.pledgeId) throw fail("alreadyCommitted", "CONFLICT");
  return resultOf(d, pledgeId, "pending");
}

/** Attempts of the one-statement commit before the locking transaction takes over (it always progresses). */
const ONE_STATEMENT_ATTEMPTS = 3;

/**
 * Records `viewer`'s commitment (SPEC §4 commit flow, DESIGN §1 threshold). Every write happens with
 * the campaign row locked and checked against the row as it is then, so commits to one campaign are
 * serialised: the counters are exact, and among any number of concurrent commits exactly one sees
 * the count reach the goal and moves the campaign on (paid: `funded`, then charging is queued after
 * commit; free: `charged` at once with every pledge marked charged).
 *
 * Round trips (issue 8, commits/s): a commit that does not reach the goal is one read and one
 * statement (commitInOneStatement). The commit that crosses the threshold, a late one, or one whose
 * row keeps changing under it runs in a transaction holding the row lock from the first read. Only a
 * request with a card (the paid flow) reads the event before, to ask the payment provider about the
 * card outside the lock.
 */
export async function commitToCampaign(viewer: Viewer | null, rawInput: unknown): Promise<CommitResult> {
  if (!viewer) throw fail("signedOut", "UNAUTHENTICATED");
  const input = parseCommitInput(rawInput);
  // Every read before the transaction takes one of a few per-instance slots (see withCommitSlot).
  const pre: Pre = await withCommitSlot(async () => {
    // Abuse limit per user, in Postgres so it holds across instances (off with RATE_LIMIT_DISABLED).
    await consume({ key: `commit:user:${viewer.id}`, ...COMMIT_RATE_LIMIT }, (ms) =>
      commitTooFastText(secondsText(ms)),
    );
    // Without a card there is nothing to check with the payment provider: the decision is made on the row.
    if (!input.paymentMethodId) return null;

    // A cheap read first: decides whether the card is needed and refuses obvious cases before asking
    // the payment provider anything. Everything is checked again on the row that is written.
    const snapshot = await db.campaign.findUnique({
      where: { id: input.campaignId },
      select: { creatorId: true, approvalStatus: true, ticketPriceCents: true, pactType: true },
    });
    if (!snapshot || !canSeeEvent(viewer, snapshot)) throw fail("notFound", "NOT_FOUND");
    const existing = await db.pledge.findUnique({
      where: { campaignId_userId: { campaignId: input.campaignId, userId: viewer.id } },
      select: { id: true },
    });
    if (existing) throw fail("alreadyCommitted", "CONFLICT");

    const paid = isPaidEvent(snapshot);
    const crowdfund = isCrowdfund(snapshot);
    const card: Card = paid ? await getGateway().getCard(viewer, input.paymentMethodId) : null;
    return { paid, crowdfund, card };
  });

  let result: CommitResult;
  try {
    result = await oneAtATime(input.campaignId, async () => {
      for (let attempt = 0; attempt < ONE_STATEMENT_ATTEMPTS; attempt++) {
        const now = new Date();
        const row = await readForCommit(db, input.campaignId, viewer.id, false);
        const d = decide(viewer, row, input, pre, now);
        if (d.crossed || d.late) break;
        const done = await commitInOneStatement(viewer, d, row!.version, now);
        if (done) return done;
      }
      return commitLocked(viewer, input, pre);
    });
  } catch (err) {
    // Two submits of one user racing past the checks: the unique (campaignId, userId) index wins.
    if (!isAppError(err) && isUniqueViolation(err)) throw fail("alreadyCommitted", "CONFLICT");
    throw err;
  }

  void kickEmailSender();
  if ((result.crossed || result.late) && !result.free) {
    // After commit: the charging job reads the funded campaign from the database. If queuing
    // fails, the charging sweeper picks up funded campaigns, so the pledge still stands.
    try {
      await requestCharging(result.campaignId);
      result.chargingQueued = true;
    } catch (err) {
      console.warn(`[pledges] could not queue charging for ${result.campaignId}: ${(err as Error).message}`);
    }
  }
  return result;
}

/**
 * A commit inside a transaction that locks the campaign row first (the threshold crossing, a late
 * commit, or a row that kept changing): the decision and every write see the row as locked.
 */
function commitLocked(
  viewer: Viewer,
  input: ReturnType<typeof parseCommitInput>,
  pre: Pre,
): Promise<CommitResult> {
  return db.$transaction(
    async (tx) => {
      const now = new Date();
      const d = decide(viewer, await readForCommit(tx, input.campaignId, viewer.id, true), input, pre, now);
      const { c, card, confirmed } = d;
      // The pledge and the counters in one statement. The unique (campaignId, userId) index is the
      // last word on a double commit: a conflict inserts nothing and updates nothing.
      const pledgeId = newId();
      const written = await tx.$queryRaw<{ id: string }[]>`
        WITH p AS (
          INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "paymentMethodId", "cardBrand",
                                "cardLast4", "paymentMethod", "createdAt")
          VALUES (${pledgeId}, ${c.id}, ${viewer.id}, ${d.amount}, ${d.pledgeCents}, ${contributorText(viewer.name)},
                  ${card?.paymentMethodId ?? null}, ${card?.brand ?? null}, ${card?.last4 ?? null},
                  ${c.paymentMethod?.trim() || "Not specified"}, ${now})
          ON CONFLICT ("campaignId", "userId") DO NOTHING
          RETURNING id, amount)
        UPDATE "Campaign" SET "committedCount" = ${d.committedCount}, "pledgeCount" = "pledgeCount" + 1,
               "raisedCents" = ${d.raisedCents}, "currentAmount" = "currentAmount" + (SELECT amount FROM p)
        WHERE id = ${c.id} AND EXISTS (SELECT 1 FROM p)
        RETURNING (SELECT id FROM p) AS id`;
      if (!written[0]) throw fail("alreadyCommitted", "CONFLICT");

      // Under the lock with status `pending` (decide() checked it), the first commit to reach the
      // goal is the only one that can see it: later ones find the campaign closed.
      let status: CommitResult["status"] = "pending";
      if (d.late) {
        status = c.status === "charged" ? "charged" : "funded";
        // A late commit to a confirmed free event is confirmed on arrival (DESIGN §1 "free events").
        if (confirmed) {
          const total = await confirmFreePledges(tx, c.id, now);
          await tx.campaign.update({
            where: { id: c.id },
            data: { totalCharged: total },
            select: { id: true },
          });
        }
      } else if (d.crossed && d.paid) {
        status = "funded";
        await tx.campaign.update({
          where: { id: c.id },
          data: { status, fundedAt: now, lastStatusUpdate: now },
          select: { id: true },
        });
      } else if (d.crossed) {
        // Free events have nothing to charge: confirmed at once (DESIGN §1 "free events").
        status = "charged";
        const confirmedCount = await confirmFreePledges(tx, c.id, now);
        await tx.campaign.update({
          where: { id: c.id },
          data: {
            status,
            fundedAt: now,
            chargedAt: now,
            chargeType: "free",
            totalCharged: confirmedCount,
            lastStatusUpdate: now,
          },
          select: { id: true },
        });
      }
      // Emails go to the outbox in this same transaction (DESIGN §1): the backer's confirmation,
      // and for a free event that just tipped, every attendee's "Event Confirmed!".
      await queueEmail(tx, commitEmail(viewer, d, pledgeId));
      if (confirmed) await queueConfirmedEmails(tx, c.id, pledgeId);
      else if (d.crossed && status === "charged") await queueConfirmedEmails(tx, c.id);
      return resultOf(d, pledgeId, status);
    },
    // Commits to one popular event queue on its row lock; give them room to wait for a pooled
    // connection and for the lock instead of failing under a burst.
    { maxWait: 60_000, timeout: 60_000 },
  );
}
