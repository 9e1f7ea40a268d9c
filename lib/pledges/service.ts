import "server-only";
import { db, Prisma } from "@/lib/db";
import { AppError, isAppError } from "@/lib/errors";
import type { Viewer } from "@/lib/auth/viewer";
import { getGateway, type CardSummary } from "@/lib/payments/gateway";
import { requestCharging } from "@/lib/charging/service";
import { queueCommitEmail, queueConfirmedEmails } from "@/lib/email/notifications";
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
 * Records `viewer`'s commitment (SPEC §4 commit flow, DESIGN §1 threshold). The campaign row is
 * locked for the whole transaction, so commits to one campaign are serialised: the re-checks see
 * the latest status, the counters are exact, and among any number of concurrent commits exactly one
 * sees the count reach the goal and moves the campaign on (paid: `funded`, then charging is queued
 * after commit; free: `charged` at once with every pledge marked charged).
 */
export async function commitToCampaign(viewer: Viewer | null, rawInput: unknown): Promise<CommitResult> {
  if (!viewer) throw fail("signedOut", "UNAUTHENTICATED");
  const input = parseInput(commitInputSchema, rawInput);
  // Every read before the transaction takes one of a few per-instance slots (see withCommitSlot).
  const { snapshot, paid, crowdfund, card } = await withCommitSlot(async () => {
    // Abuse limit per user, in Postgres so it holds across instances (off with RATE_LIMIT_DISABLED).
    await consume({ key: `commit:user:${viewer.id}`, ...COMMIT_RATE_LIMIT }, (ms) =>
      commitTooFastText(secondsText(ms)),
    );

    // A cheap read first: decides whether a card is needed and refuses obvious cases before asking
    // the payment provider anything. Everything is checked again under the lock.
    const snapshot = await db.campaign.findUnique({
      where: { id: input.campaignId },
      select: { creatorId: true, approvalStatus: true, ticketPriceCents: true, pactType: true },
    });
    if (
      !snapshot ||
      (snapshot.approvalStatus !== "approved" && !viewer.isAdmin && viewer.id !== snapshot.creatorId)
    ) {
      throw fail("notFound", "NOT_FOUND");
    }
    const existing = await db.pledge.findUnique({
      where: { campaignId_userId: { campaignId: input.campaignId, userId: viewer.id } },
      select: { id: true },
    });
    if (existing) throw fail("alreadyCommitted", "CONFLICT");

    const paid = isPaidEvent(snapshot);
    const crowdfund = snapshot.pactType === "crowdfund";
    let card: CardSummary | null = null;
    if (paid) {
      if (!input.paymentMethodId) throw fail("paymentRequired", "BAD_REQUEST");
      card = await getGateway().getCard(viewer, input.paymentMethodId);
    }
    return { snapshot, paid, crowdfund, card };
  });
  let amountCents = snapshot.ticketPriceCents;
  if (crowdfund) {
    const minimum = Math.max(CROWDFUND_MIN_CENTS, snapshot.ticketPriceCents);
    if (input.amount === undefined)
      throw new AppError("BAD_REQUEST", "Please enter an amount", { amount: "Please enter an amount" });
    if (input.amount < minimum) {
      const text = `Amount must be at least $${(minimum / 100).toFixed(2)}`;
      throw new AppError("BAD_REQUEST", text, { amount: text });
    }
    amountCents = input.amount;
  }

  let result: CommitResult;
  try {
    result = await oneAtATime(input.campaignId, () =>
      db.$transaction(
        async (tx) => {
          const rows = await tx.$queryRaw<LockedCampaign[]>`
          SELECT id, goal, status::text AS status, "approvalStatus"::text AS "approvalStatus", deadline, "creatorId",
                 "ticketPriceCents", "pactType"::text AS "pactType", "paymentMethod",
                 "committedCount", "pledgeCount", "raisedCents", "acceptAfterThreshold"
          FROM "Campaign" WHERE id = ${input.campaignId} FOR UPDATE`;
          const c = rows[0];
          if (!c) throw fail("notFound", "NOT_FOUND");
          // The price or type may have changed since the snapshot; the card decision must match the row.
          if (isPaidEvent(c) !== paid || (c.pactType === "crowdfund") !== crowdfund)
            throw fail("saveFailed", "CONFLICT");

          const already = await tx.pledge.findUnique({
            where: { campaignId_userId: { campaignId: c.id, userId: viewer.id } },
            select: { id: true },
          });
          const now = new Date();
          const block = commitBlock(viewer, c, Boolean(already), now);
          if (block) throw fail(block, BLOCK_CODES[block]);

          const pledge = await tx.pledge.create({
            data: {
              campaignId: c.id,
              userId: viewer.id,
              amount: crowdfund ? Math.max(1, Math.floor(amountCents / 100)) : 1,
              amountCents: paid || crowdfund ? amountCents : 0,
              contributor: viewer.name?.trim() || viewer.email,
              paymentMethodId: card?.paymentMethodId ?? null,
              cardBrand: card?.brand ?? null,
              cardLast4: card?.last4 ?? null,
              paymentMethod: c.paymentMethod?.trim() || "Not specified",
              createdAt: now,
            },
            select: { id: true, amount: true, amountCents: true },
          });

          // Threshold rule (SPEC §4): paid events count pledges with a saved card (every paid pledge
          // carries one, checked above), free events count all; a crowdfund counts dollars.
          const counts = !paid || Boolean(card);
          const committedCount = c.committedCount + (counts ? 1 : 0);
          const raisedCents = c.raisedCents + pledge.amountCents;
          const progress = crowdfund ? Math.floor(raisedCents / 100) : committedCount;
          // Under the lock with status `pending` (checked above), the first commit to reach the goal
          // is the only one that can see it: later ones find the campaign closed.
          // A late commit (the event keeps accepting after its threshold) crosses nothing: the
          // campaign is already confirmed; it is charged at once below / by the charging job.
          const late = isLateCommit(c);
          const crossed = !late && progress >= c.goal;

          let status: CommitResult["status"] = "pending";
          const data: Prisma.CampaignUpdateInput = {
            committedCount,
            pledgeCount: { increment: 1 },
            raisedCents,
            currentAmount: { increment: pledge.amount },
          };
          if (late) {
            status = c.status === "charged" ? "charged" : "funded";
            if (!paid) {
              // Free: confirmed on arrival, like the others were at the threshold.
              await tx.pledge.update({
                where: { id: pledge.id },
                data: { charged: true, verified: true, chargeType: "free", chargedAt: now, paymentIntentId: null, chargeStatus: "succeeded" },
              });
              Object.assign(data, { totalCharged: { increment: 1 } });
            }
          } else if (crossed && paid) {
            status = "funded";
            Object.assign(data, { status, fundedAt: now, lastStatusUpdate: now });
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
            Object.assign(data, {
              status,
              fundedAt: now,
              chargedAt: now,
              chargeType: "free",
              totalCharged: { increment: marked.count },
              lastStatusUpdate: now,
            });
          }
          await tx.campaign.update({ where: { id: c.id }, data, select: { id: true } });
          // Emails go to the outbox in this same transaction (DESIGN §1): the backer's confirmation,
          // and for a free event that just tipped, every attendee's "Event Confirmed!".
          await queueCommitEmail(tx, pledge.id);
          if (late && !paid) await queueConfirmedEmails(tx, c.id, pledge.id);
          else if (crossed && status === "charged") await queueConfirmedEmails(tx, c.id);

          return {
            pledgeId: pledge.id,
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
