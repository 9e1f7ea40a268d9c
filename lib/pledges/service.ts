import "server-only";
import { randomBytes } from "node:crypto";
import { db, Prisma } from "@/lib/db";
import { AppError, isAppError } from "@/lib/errors";
import type { Viewer } from "@/lib/auth/viewer";
import { getGateway, type CardSummary } from "@/lib/payments/gateway";
import { requestCharging } from "@/lib/charging/service";
import { queueCommitEmailOf, queueConfirmedEmails } from "@/lib/email/notifications";
import { kickEmailSender } from "@/lib/email/service";
import { parseInput } from "@/lib/actions";
import { commitInputSchema, CROWDFUND_MIN_CENTS } from "@/lib/pledges/schema";
import { COMMIT_MESSAGES, commitBlock, isLateCommit, isPaidEvent } from "@/lib/pledges/policy";
import { consume, secondsText } from "@/lib/rate-limit/service";

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

/** Unapproved events exist only for their creator and admins (others get "not found"). */
const visibleTo = (viewer: Viewer, c: { approvalStatus: string; creatorId: string }) =>
  c.approvalStatus === "approved" || viewer.isAdmin || viewer.id === c.creatorId;

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
 * At most this many commits per instance do their pre-transaction reads (rate limit, campaign,
 * existing pledge, card check) at once; the rest wait in memory. Without it, 200 simultaneous
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
 * A new pledge id in the shape of Prisma's cuid() (25 lowercase letters and digits, a time prefix
 * then randomness), for the raw insert below, which Prisma's client-side id default does not reach.
 */
function newPledgeId(): string {
  const bytes = randomBytes(15);
  let rand = "";
  for (const b of bytes) rand += (b % 36).toString(36);
  return `c${Date.now().toString(36).padStart(9, "0")}${rand}`;
}

/**
 * Records `viewer`'s commitment (SPEC §4 commit flow, DESIGN §1 threshold). The campaign row is
 * locked for the whole transaction, so commits to one campaign are serialised: the re-checks see
 * the latest status, the counters are exact, and among any number of concurrent commits exactly one
 * sees the count reach the goal and moves the campaign on (paid: `funded`, then charging is queued
 * after commit; free: `charged` at once with every pledge marked charged).
 *
 * Round trips (issue 8, commits/s): a free commit is BEGIN, one statement that locks the campaign
 * and reads whether the viewer already committed (and their email address), one statement that
 * inserts the pledge and updates the counters, the outbox insert of the confirmation email, COMMIT.
 * Only a request with a card (the paid flow) reads the event before the transaction, to ask the
 * payment provider about the card outside the lock.
 */
export async function commitToCampaign(viewer: Viewer | null, rawInput: unknown): Promise<CommitResult> {
  if (!viewer) throw fail("signedOut", "UNAUTHENTICATED");
  const input = parseInput(commitInputSchema, rawInput);
  // Every read before the transaction takes one of a few per-instance slots (see withCommitSlot).
  const pre = await withCommitSlot(async () => {
    // Abuse limit per user, in Postgres so it holds across instances (off with RATE_LIMIT_DISABLED).
    await consume({ key: `commit:user:${viewer.id}`, ...COMMIT_RATE_LIMIT }, (ms) =>
      commitTooFastText(secondsText(ms)),
    );
    // Without a card there is nothing to check with the payment provider: the transaction decides.
    if (!input.paymentMethodId) return null;

    // A cheap read first: decides whether the card is needed and refuses obvious cases before asking
    // the payment provider anything. Everything is checked again under the lock.
    const snapshot = await db.campaign.findUnique({
      where: { id: input.campaignId },
      select: { creatorId: true, approvalStatus: true, ticketPriceCents: true, pactType: true },
    });
    if (!snapshot || !visibleTo(viewer, snapshot)) throw fail("notFound", "NOT_FOUND");
    const existing = await db.pledge.findUnique({
      where: { campaignId_userId: { campaignId: input.campaignId, userId: viewer.id } },
      select: { id: true },
    });
    if (existing) throw fail("alreadyCommitted", "CONFLICT");

    const paid = isPaidEvent(snapshot);
    const crowdfund = snapshot.pactType === "crowdfund";
    const card: CardSummary | null = paid ? await getGateway().getCard(viewer, input.paymentMethodId) : null;
    return { paid, crowdfund, card };
  });

  let result: CommitResult;
  try {
    result = await oneAtATime(input.campaignId, () =>
      db.$transaction(
        async (tx) => {
          // The lock, the viewer's existing pledge and their address for the email, in one statement.
          const rows = await tx.$queryRaw<LockedCampaign[]>`
          SELECT c.id, c.goal, c.status::text AS status, c."approvalStatus"::text AS "approvalStatus", c.deadline, c."creatorId",
                 c."ticketPriceCents", c."pactType"::text AS "pactType", c."paymentMethod",
                 c."committedCount", c."pledgeCount", c."raisedCents", c."acceptAfterThreshold", c.title, c.description,
                 EXISTS (SELECT 1 FROM "Pledge" p WHERE p."campaignId" = c.id AND p."userId" = ${viewer.id}) AS "alreadyCommitted",
                 (SELECT u.email FROM "User" u WHERE u.id = ${viewer.id}) AS "userEmail",
                 (SELECT u.name FROM "User" u WHERE u.id = ${viewer.id}) AS "userName"
          FROM "Campaign" c WHERE c.id = ${input.campaignId} FOR UPDATE`;
          const c = rows[0];
          if (!c || !visibleTo(viewer, c)) throw fail("notFound", "NOT_FOUND");
          // The same order of refusals as the checks before the transaction: own pledge, card, amount.
          if (c.alreadyCommitted) throw fail("alreadyCommitted", "CONFLICT");
          const paid = isPaidEvent(c);
          const crowdfund = c.pactType === "crowdfund";
          if (pre) {
            // The price or type may have changed since the snapshot; the card decision must match the row.
            if (paid !== pre.paid || crowdfund !== pre.crowdfund) throw fail("saveFailed", "CONFLICT");
          } else if (paid) {
            throw fail("paymentRequired", "BAD_REQUEST");
          }
          const card = pre?.card ?? null;
          let amountCents = c.ticketPriceCents;
          if (crowdfund) {
            const minimum = Math.max(CROWDFUND_MIN_CENTS, c.ticketPriceCents);
            if (input.amount === undefined)
              throw new AppError("BAD_REQUEST", "Please enter an amount", { amount: "Please enter an amount" });
            if (input.amount < minimum) {
              const text = `Amount must be at least $${(minimum / 100).toFixed(2)}`;
              throw new AppError("BAD_REQUEST", text, { amount: text });
            }
            amountCents = input.amount;
          }

          const now = new Date();
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
          // Under the lock with status `pending` (checked above), the first commit to reach the goal
          // is the only one that can see it: later ones find the campaign closed.
          // A late commit (the event keeps accepting after its threshold) crosses nothing: the
          // campaign is already confirmed; it is charged at once below / by the charging job.
          const late = isLateCommit(c);
          const crossed = !late && progress >= c.goal;
          // A late commit to a free event is confirmed on arrival, like the others were at the threshold.
          const confirmed = late && !paid;

          // The pledge and the counters in one statement. The unique (campaignId, userId) index is the
          // last word on a double commit: a conflict inserts nothing and updates nothing.
          const pledgeId = newPledgeId();
          const written = await tx.$queryRaw<{ id: string }[]>`
          WITH p AS (
            INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "paymentMethodId", "cardBrand",
                                  "cardLast4", "paymentMethod", "createdAt", charged, verified, "chargeType", "chargedAt", "chargeStatus")
            VALUES (${pledgeId}, ${c.id}, ${viewer.id}, ${amount}, ${pledgeCents}, ${viewer.name?.trim() || viewer.email},
                    ${card?.paymentMethodId ?? null}, ${card?.brand ?? null}, ${card?.last4 ?? null},
                    ${c.paymentMethod?.trim() || "Not specified"}, ${now}, ${confirmed}, ${confirmed},
                    ${confirmed ? "free" : null}::"ChargeType", ${confirmed ? now : null}::timestamptz,
                    ${confirmed ? "succeeded" : "none"}::"PledgeChargeStatus")
            ON CONFLICT ("campaignId", "userId") DO NOTHING
            RETURNING id, amount)
          UPDATE "Campaign" SET "committedCount" = ${committedCount}, "pledgeCount" = "pledgeCount" + 1,
                 "raisedCents" = ${raisedCents}, "currentAmount" = "currentAmount" + (SELECT amount FROM p),
                 "totalCharged" = "totalCharged" + ${confirmed ? 1 : 0}
          WHERE id = ${c.id} AND EXISTS (SELECT 1 FROM p)
          RETURNING (SELECT id FROM p) AS id`;
          if (!written[0]) throw fail("alreadyCommitted", "CONFLICT");

          let status: CommitResult["status"] = "pending";
          if (late) {
            status = c.status === "charged" ? "charged" : "funded";
          } else if (crossed && paid) {
            status = "funded";
            await tx.campaign.update({ where: { id: c.id }, data: { status, fundedAt: now, lastStatusUpdate: now }, select: { id: true } });
          } else if (crossed) {
            // Free events have nothing to charge: confirmed at once (DESIGN §1 "free events").
            status = "charged";
            const marked = await tx.pledge.updateMany({
              where: { campaignId: c.id, charged: false },
              data: {
                charged: true,
                verified: true,
                chargeType: "free",
                chargedAt: now,
                paymentIntentId: null,
                chargeStatus: "succeeded",
              },
            });
            await tx.campaign.update({
              where: { id: c.id },
              data: {
                status,
                fundedAt: now,
                chargedAt: now,
                chargeType: "free",
                totalCharged: { increment: marked.count },
                lastStatusUpdate: now,
              },
              select: { id: true },
            });
          }
          // Emails go to the outbox in this same transaction (DESIGN §1): the backer's confirmation,
          // and for a free event that just tipped, every attendee's "Event Confirmed!".
          const emailCampaign = {
            id: c.id,
            title: c.title,
            description: c.description,
            deadline: c.deadline,
            goal: c.goal,
            committedCount,
            ticketPriceCents: c.ticketPriceCents,
          };
          await queueCommitEmailOf(tx, emailCampaign, { userId: viewer.id, email: c.userEmail ?? viewer.email, name: c.userName }, pledgeId);
          if (confirmed) await queueConfirmedEmails(tx, c.id, pledgeId);
          else if (crossed && status === "charged") await queueConfirmedEmails(tx, c.id);

          return {
            pledgeId,
            campaignId: c.id,
            committedCount: progress,
            goal: c.goal,
            remaining: Math.max(0, c.goal - progress),
            thresholdMet: crossed || late,
            crossed,
            late,
            status,
            unit: crowdfund ? "dollars" : "people",
            free: !paid,
            chargingQueued: (crossed || late) && !paid,
          } satisfies CommitResult;
        },
        // Commits to one popular event queue on its row lock; give them room to wait for a pooled
        // connection and for the lock instead of failing under a burst.
        { maxWait: 60_000, timeout: 60_000 },
      ),
    );
  } catch (err) {
    // Two submits of one user racing past the read above: the unique (campaignId, userId) index wins.
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
