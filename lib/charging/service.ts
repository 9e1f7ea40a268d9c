import "server-only";
import { db, Prisma, statusIn } from "@/lib/db";
import { CONFIRMED_STATUSES, inStatuses, recountMeetsGoal } from "@/lib/campaigns/lifecycle";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { enqueue } from "@/lib/jobs/boss";
import { getGateway, type ChargeResult, type PaymentGateway } from "@/lib/payments/gateway";
import { HARD_DECLINE_CODES } from "@/lib/payments/declines";
import { onChargeFailed } from "@/lib/charging/notify";
import { kickEmailSender } from "@/lib/email/service";
import { STALE_CLAIM_MS } from "@/lib/charging/policy";
import { getChargeSummary, type ChargeSummary } from "@/lib/charging/queries";
import { consume, secondsText } from "@/lib/rate-limit/service";
import { isFreeEvent, pledgeChargeCents } from "@/lib/campaigns/lifecycle";
import { seesAllIdentities } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";

/**
 * The money path (DESIGN §1 "charging"). A pledge moves none → processing → succeeded | failed |
 * requires_action. The move to `processing` is a conditional UPDATE (the CLAIM), so however many
 * runs execute at once — retries, the sweeper, check-and-charge calls, other instances — one pledge
 * is charged by one run. The idempotency key is derived from (pledge id, attempt number); a run
 * that crashed after the claim leaves `processing`, and the run that picks the stale claim up sends
 * the SAME key, so the provider returns the original payment instead of charging again.
 */
export const CHARGE_JOB = "charge-campaign";

type Viewer = { id: string; isAdmin: boolean };
type ClaimedPledge = {
  id: string;
  userId: string;
  paymentMethodId: string;
  amountCents: number;
  chargeAttempts: number;
  createdAt: Date;
  customerId: string | null;
  /** this claim's stamp, and the state before it: a claim not yet charged can be given back exactly */
  claimedAt: Date;
  prevStatus: string;
  prevClaimedAt: Date | null;
  prevAttempts: number;
};
type CampaignForCharge = {
  id: string;
  status: string;
  goal: number;
  ticketPriceCents: number;
  pactType: string | null;
  deadline: Date;
};

export type RunResult = ChargeSummary;
export type RunOptions = {
  concurrency?: number;
  retryFailed?: boolean;
  staleAfterMs?: number;
  gateway?: PaymentGateway;
  /** stop claiming new pledges after this long (HTTP callers); the queued job finishes the rest */
  timeBudgetMs?: number;
};

/** How long an HTTP request may spend charging before it answers; the job carries on. */
const HTTP_TIME_BUDGET_MS = 20_000;

/**
 * Queues the charge job of a campaign. The singletonKey names the campaign; should two jobs for one
 * campaign still run at once (standard queue policy, several instances), they are harmless: claims
 * hand them disjoint pledges. With jobs disabled (tests, CLI) nothing is queued and the sweeper or a
 * direct runCharging call does the work.
 */
export async function requestCharging(campaignId: string): Promise<void> {
  await enqueue(CHARGE_JOB, { campaignId }, { singletonKey: `charge:${campaignId}` });
}

const isFree = isFreeEvent;
const chargeAmount = pledgeChargeCents;

async function loadCampaign(campaignId: string): Promise<CampaignForCharge | null> {
  return db.campaign.findUnique({
    where: { id: campaignId },
    select: { id: true, status: true, goal: true, ticketPriceCents: true, pactType: true, deadline: true },
  });
}

/**
 * Moves a pending campaign whose threshold is met (counted from the pledges, per DESIGN §1) to
 * `funded`. The commit transaction normally does this; this is the server-side check behind
 * POST /api/check-and-charge and the manual charge, with the campaign row locked.
 */
export async function fundIfThresholdMet(campaignId: string): Promise<string | null> {
  // Only a pending campaign can change here: anything else is answered without taking the lock.
  const current = await db.campaign.findUnique({ where: { id: campaignId }, select: { status: true } });
  if (!current || current.status !== "pending") return current?.status ?? null;
  return db.$transaction(async (tx) => {
    const [c] = await tx.$queryRaw<
      { status: string; goal: number; ticketPriceCents: number; pactType: string | null; deadline: Date }[]
    >`
      SELECT "status"::text AS "status", "goal", "ticketPriceCents", "pactType"::text AS "pactType", "deadline"
      FROM "Campaign" WHERE "id" = ${campaignId} FOR UPDATE`;
    if (!c) return null;
    if (c.status !== "pending" || c.deadline.getTime() <= Date.now()) return c.status;
    const [counts] = await tx.$queryRaw<{ all: number; withCard: number; cents: number }[]>`
      SELECT count(*)::int AS "all", count("paymentMethodId")::int AS "withCard", COALESCE(sum("amountCents"), 0)::float8 AS "cents"
      FROM "Pledge" WHERE "campaignId" = ${campaignId}`;
    if (!recountMeetsGoal(c, counts)) return c.status;
    await tx.campaign.update({
      where: { id: campaignId },
      data: { status: "funded", fundedAt: new Date(), lastStatusUpdate: new Date() },
    });
    return "funded";
  });
}

/**
 * Free event at its threshold (DESIGN §1 "free events"): confirmed at once, every pledge marked
 * free, `totalCharged` = the pledges confirmed. A campaign already `charged` is settled: it is never
 * rewritten (its totals and `chargedAt` stay as they were).
 */
async function confirmFree(campaignId: string) {
  const now = new Date();
  await db.$transaction(async (tx) => {
    const moved = await tx.campaign.updateMany({
      where: { id: campaignId, status: { in: ["funded", "charging"] } },
      data: {
        status: "charged",
        chargedAt: now,
        chargeType: "free",
        totalChargedCents: 0,
        lastStatusUpdate: now,
      },
    });
    if (moved.count === 0) return;
    await tx.pledge.updateMany({
      where: { campaignId, charged: false },
      data: {
        charged: true,
        verified: true,
        chargedAt: now,
        chargeType: "free",
        chargeStatus: "succeeded",
        paymentIntentId: null,
      },
    });
    const confirmed = await tx.pledge.count({ where: { campaignId, charged: true, chargeType: "free" } });
    await tx.campaign.update({ where: { id: campaignId }, data: { totalCharged: confirmed } });
  });
}

const HARD_CODES = [...HARD_DECLINE_CODES];

/**
 * DESIGN §1 "failed payments": a soft decline gets one retry (the organizer's manual charge is that
 * retry), so at most two off-session attempts; after that only the backer's own payment can settle it.
 */
export const MAX_OFF_SESSION_ATTEMPTS = 2;

/** Manual charges per event (issue 14: 8 clicks in 1.8 s made 8 attempts on one card). */
export const MANUAL_CHARGE_LIMIT = { limit: 3, windowMs: 60_000 };

/**
 * Claims the next chargeable pledges (up to `limit`) of a campaign for this run: uncharged with a
 * saved card and either unclaimed, or claimed by a run that died (claim older than `staleAfterMs`),
 * or — for the manual charge — a soft decline not yet retried by this run. `FOR UPDATE SKIP LOCKED`
 * hands concurrent runs (on any instance) disjoint pledges without waiting; the UPDATE re-checks
 * the state, so a pledge is never held twice. A fresh claim increments the attempt (a new
 * idempotency key); re-driving a stale claim keeps it, so the provider replays the first request.
 * The backer's provider customer comes along, so the charge needs no lookup of its own, and the
 * pledge's state before the claim, so a claim not charged can be given back (`giveBackClaims`).
 */
async function claimBatch(
  campaignId: string,
  staleAfterMs: number,
  runStart: Date,
  retryFailed: boolean,
  limit: number,
): Promise<ClaimedPledge[]> {
  // New charges only while the campaign is confirmed (not cancelled or expired meanwhile). A stale
  // claim is still re-driven: with its original idempotency key it can only learn the outcome of a
  // charge already made, which then gets recorded (and refunded if the event was cancelled).
  const live = Prisma.sql`EXISTS (SELECT 1 FROM "Campaign" c WHERE c."id" = ${campaignId} AND c."status" IN (${statusIn(CONFIRMED_STATUSES)}))`;
  const retry = retryFailed
    ? Prisma.sql`OR ("chargeStatus" = 'failed' AND "chargeClaimedAt" < ${runStart} AND ${live} AND "chargeAttempts" < ${MAX_OFF_SESSION_ATTEMPTS}
         AND ("chargeFailureCode" IS NULL OR "chargeFailureCode" NOT IN (${Prisma.join(HARD_CODES)})))`
    : Prisma.empty;
  const rows = await db.$queryRaw<ClaimedPledge[]>`
    UPDATE "Pledge" AS p SET
      "chargeStatus" = 'processing',
      "chargeClaimedAt" = clock_timestamp(),
      "chargeAttempts" = CASE WHEN p."chargeStatus" = 'processing' THEN GREATEST(p."chargeAttempts", 1) ELSE p."chargeAttempts" + 1 END
    FROM (
      SELECT "id", "chargeStatus"::text AS "prevStatus", "chargeClaimedAt" AS "prevClaimedAt", "chargeAttempts" AS "prevAttempts" FROM "Pledge"
      WHERE "campaignId" = ${campaignId} AND "paymentMethodId" IS NOT NULL AND "charged" = false
        AND (("chargeStatus" = 'none' AND ${live})
          OR ("chargeStatus" = 'processing' AND "chargeClaimedAt" < LEAST(${runStart}, clock_timestamp() - (${staleAfterMs}::int * interval '1 millisecond')))
          ${retry})
      ORDER BY "createdAt" ASC, "id" ASC
      LIMIT ${limit}
      FOR UPDATE SKIP LOCKED
    ) AS next, "User" AS u
    WHERE p."id" = next."id" AND u."id" = p."userId"
    RETURNING p."id", p."userId", p."paymentMethodId", p."amountCents", p."chargeAttempts", p."createdAt", u."stripeCustomerId" AS "customerId",
      p."chargeClaimedAt" AS "claimedAt", next."prevStatus", next."prevClaimedAt", next."prevAttempts"`;
  // In the order they were committed (RETURNING keeps none).
  return rows.sort(
    (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
  );
}

/**
 * Gives claims back that this run took but never charged (nothing was sent to the provider under
 * their attempt's key): each pledge returns to exactly its state before the claim, if the claim is
 * still this run's. The next run claims it again with the same attempt number.
 */
async function giveBackClaims(claims: ClaimedPledge[]): Promise<void> {
  if (claims.length === 0) return;
  const values = claims.map(
    (c) =>
      Prisma.sql`(${c.id}::text, ${c.chargeAttempts}::int, ${c.claimedAt}::timestamptz, ${c.prevStatus}::text, ${c.prevClaimedAt}::timestamptz, ${c.prevAttempts}::int)`,
  );
  await db.$executeRaw`
    UPDATE "Pledge" AS p SET
      "chargeStatus" = v."prevStatus"::"PledgeChargeStatus", "chargeClaimedAt" = v."prevClaimedAt", "chargeAttempts" = v."prevAttempts"
    FROM (VALUES ${Prisma.join(values)}) AS v("id", "attempt", "claimedAt", "prevStatus", "prevClaimedAt", "prevAttempts")
    WHERE p."id" = v."id" AND p."chargeStatus" = 'processing' AND p."chargeAttempts" = v."attempt" AND p."chargeClaimedAt" = v."claimedAt"`;
}

/** Whether new charges may start for the campaign (confirmed, not cancelled or expired meanwhile). */
async function campaignLive(campaignId: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ live: boolean }[]>`
    SELECT "status" IN (${statusIn(CONFIRMED_STATUSES)}) AS "live" FROM "Campaign" WHERE "id" = ${campaignId}`;
  return rows[0]?.live === true;
}

/** A fresh claim is charged only if the campaign was seen live this recently (else it is looked at again). */
const LIVE_FRESH_MS = 50;

/**
 * Records a charge's outcome. A success is the provider's word that money moved, so it is recorded
 * whatever the pledge's state (except already succeeded/refunded); a failure only on a pledge this
 * run still holds (`processing`), so a late failure never overwrites a success.
 */
export async function recordChargeResult(
  pledgeId: string,
  amountCents: number,
  result: ChargeResult,
  opts: { notify?: boolean } = {},
): Promise<boolean> {
  if (result.status === "succeeded") {
    // The backer's "Event Confirmed!" email is derived from the charged pledge by the email job
    // (lib/email/derived.ts, same dedupe key), so this hot path stays one short statement.
    const { count } = await db.pledge.updateMany({
      where: { id: pledgeId, chargeStatus: { in: ["none", "processing", "failed", "requires_action"] } },
      data: {
        chargeStatus: "succeeded",
        charged: true,
        verified: true,
        chargedAt: new Date(),
        chargeType: "paid",
        paymentIntentId: result.paymentIntentId,
        amountCents,
        chargeFailureCode: null,
        chargeFailureMessage: null,
      },
    });
    return count > 0;
  }
  const { count } = await db.pledge.updateMany({
    where: { id: pledgeId, chargeStatus: "processing" },
    data: {
      chargeStatus: result.status === "requires_action" ? "requires_action" : "failed",
      chargeFailureCode: result.code,
      chargeFailureMessage: result.message.slice(0, 500),
      ...(result.paymentIntentId ? { paymentIntentId: result.paymentIntentId } : {}),
    },
  });
  if (count > 0 && opts.notify !== false) await onChargeFailed(pledgeId);
  return count > 0;
}

/**
 * Records several successes in one statement, under the same rule as `recordChargeResult` (a
 * success is recorded whatever the pledge's state, except already succeeded/refunded). Returns how
 * many pledges it changed.
 */
async function recordSuccesses(
  items: { pledgeId: string; amountCents: number; paymentIntentId: string }[],
): Promise<number> {
  if (items.length === 0) return 0;
  const values = items.map(
    (i) => Prisma.sql`(${i.pledgeId}::text, ${i.paymentIntentId}::text, ${i.amountCents}::int)`,
  );
  return db.$executeRaw`
    UPDATE "Pledge" AS p SET
      "chargeStatus" = 'succeeded', "charged" = true, "verified" = true, "chargedAt" = now(), "chargeType" = 'paid',
      "paymentIntentId" = v."paymentIntentId", "amountCents" = v."amountCents",
      "chargeFailureCode" = NULL, "chargeFailureMessage" = NULL
    FROM (VALUES ${Prisma.join(values)}) AS v("id", "paymentIntentId", "amountCents")
    WHERE p."id" = v."id" AND p."chargeStatus" IN ('none', 'processing', 'failed', 'requires_action')`;
}

/** Sets `charged` with the totals once no pledge is left to charge (idempotent; recomputes totals). */
export async function finalizeIfDone(campaignId: string): Promise<boolean> {
  const n = await db.$executeRaw`
    UPDATE "Campaign" AS c SET
      "status" = 'charged', "chargedAt" = COALESCE(c."chargedAt", now()), "chargeType" = 'paid',
      "totalCharged" = t."n", "totalChargedCents" = t."cents", "lastStatusUpdate" = now()
    FROM (
      SELECT count(*)::int AS "n", COALESCE(sum("amountCents"), 0)::bigint AS "cents"
      FROM "Pledge" WHERE "campaignId" = ${campaignId} AND "chargeStatus" = 'succeeded' AND "chargeType" = 'paid'
    ) AS t
    WHERE c."id" = ${campaignId} AND c."status" IN (${statusIn(CONFIRMED_STATUSES)})
      AND (c."status" <> 'charged' OR c."totalCharged" <> t."n" OR c."totalChargedCents" <> t."cents")
      AND NOT EXISTS (
        SELECT 1 FROM "Pledge" p WHERE p."campaignId" = ${campaignId} AND p."paymentMethodId" IS NOT NULL
          AND p."charged" = false AND p."chargeStatus" IN ('none', 'processing')
      )`;
  return n > 0;
}

type RunCounts = { charged: number; failed: number; unknown: number };

async function chargeCampaign(campaignId: string, opts: RunOptions, counts: RunCounts): Promise<void> {
  const campaign = await loadCampaign(campaignId);
  if (!campaign || !inStatuses(CONFIRMED_STATUSES, campaign.status)) return;
  if (isFree(campaign)) {
    await confirmFree(campaignId);
    return;
  }
  await db.campaign.updateMany({
    where: { id: campaignId, status: "funded" },
    data: { status: "charging", lastStatusUpdate: new Date() },
  });
  const gateway = opts.gateway ?? getGateway();
  const concurrency = Math.max(1, opts.concurrency ?? env().CHARGE_CONCURRENCY);
  const staleAfterMs = Math.max(0, Math.floor(opts.staleAfterMs ?? STALE_CLAIM_MS));
  // A run takes each pledge at most once: stale claims and (manual charge) soft declines are only
  // re-claimed if their claim predates this run, so a charge whose outcome stays unknown is not
  // hammered in a loop.
  const [{ now: runStart }] = await db.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS "now"`;

  const stopAt = opts.timeBudgetMs ? Date.now() + opts.timeBudgetMs : Infinity;
  const retryFailed = Boolean(opts.retryFailed);

  // A pipeline, so the provider always has `concurrency` charges in flight and the database work
  // around them is done in batches off the charging lanes:
  // - claims are taken `concurrency` at a time, one batch ahead of the lanes. A claimed pledge
  //   waits here a fraction of a second: should the process die meanwhile, it is a stale claim that
  //   a later run re-drives with the same idempotency key, like any claim; when the time budget is
  //   spent, or the campaign is no longer live, the claims not charged are given back as they were;
  // - a new charge starts only if the campaign was seen live within LIVE_FRESH_MS (by a claim or
  //   a check shared by the lanes), as close as the unbatched claim-then-charge was;
  // - each lane charges a claimed pledge and hands the outcome to the recorder without waiting;
  // - the recorder writes all successes pending at a time in one statement (failures one by one:
  //   they notify the backer). An outcome not yet written keeps its claim, so a crash before the
  //   write is re-driven with the same key and the provider replays the original answer.
  const queue: ClaimedPledge[] = [];
  let exhausted = false;
  let claiming: Promise<void> | null = null;
  let claimError: unknown = null;
  let liveAt = -Infinity; // when a statement that found the campaign live was sent
  let live = true;
  const claim = () => {
    if (!claiming) {
      const sent = performance.now();
      claiming = claimBatch(campaignId, staleAfterMs, runStart, retryFailed, concurrency)
        .then((rows) => {
          if (rows.length === 0) exhausted = true;
          // Fresh claims were selected only from a live campaign.
          if (rows.some((r) => r.prevStatus !== "processing")) liveAt = Math.max(liveAt, sent);
          queue.push(...rows);
        })
        .catch((err) => {
          claimError = err;
        })
        .finally(() => {
          claiming = null;
        });
    }
    return claiming;
  };
  let checking: Promise<void> | null = null;
  const checkLive = () => {
    if (!checking) {
      const sent = performance.now();
      checking = campaignLive(campaignId)
        .then((isLive) => {
          if (isLive) liveAt = Math.max(liveAt, sent);
          else live = false;
        })
        .finally(() => {
          checking = null;
        });
    }
    return checking;
  };
  const mayStart = async (p: ClaimedPledge): Promise<boolean> => {
    // A stale claim is re-driven whatever the campaign's state (see claimBatch).
    if (p.prevStatus === "processing") return true;
    if (live && performance.now() - liveAt > LIVE_FRESH_MS) await checkLive();
    else if (live && performance.now() - liveAt > LIVE_FRESH_MS / 2) void checkLive().catch(() => {}); // keep it fresh ahead of the lanes
    return live;
  };
  // The next claimed pledge: none once the time budget is spent (what is left is given back).
  const next = async (): Promise<ClaimedPledge | null> => {
    for (;;) {
      if (claimError) throw claimError;
      if (Date.now() > stopAt) return null;
      const p = queue.shift();
      if (p) {
        if (queue.length < concurrency && !exhausted) void claim();
        return p;
      }
      if (exhausted) return null;
      await claim();
    }
  };

  const succeeded: { pledgeId: string; amountCents: number; paymentIntentId: string }[] = [];
  const recording = new Set<Promise<void>>();
  let flushing: Promise<void> | null = null;
  const track = (work: Promise<void>) => {
    recording.add(work);
    void work.finally(() => recording.delete(work));
  };
  const flushSuccesses = async () => {
    while (succeeded.length > 0) {
      const batch = succeeded.splice(0, 500);
      try {
        counts.charged += await recordSuccesses(batch);
      } catch (err) {
        // The charges happened but could not be recorded (database trouble): the claims stay, and
        // the re-drive replays the same idempotency keys and records the provider's original answers.
        console.warn(
          `[charging] ${batch.length} charge result(s) not recorded, will be re-driven: ${(err as Error).message}`,
        );
        counts.unknown += batch.length;
      }
    }
    flushing = null;
  };
  const record = (p: ClaimedPledge, amountCents: number, result: ChargeResult) => {
    if (result.status === "succeeded") {
      succeeded.push({ pledgeId: p.id, amountCents, paymentIntentId: result.paymentIntentId });
      if (!flushing) track((flushing = flushSuccesses()));
      return;
    }
    track(
      recordChargeResult(p.id, amountCents, result).then(
        (changed) => {
          if (changed) counts.failed++;
        },
        (err) => {
          console.warn(
            `[charging] pledge ${p.id}: result not recorded, will be re-driven: ${(err as Error).message}`,
          );
          counts.unknown++;
        },
      ),
    );
  };

  const notCharged: ClaimedPledge[] = [];
  const lane = async () => {
    for (;;) {
      const p = await next();
      if (!p) return;
      let start: boolean;
      try {
        start = await mayStart(p);
      } catch (err) {
        notCharged.push(p);
        throw err;
      }
      if (!start) {
        notCharged.push(p);
        continue;
      }
      const amountCents = chargeAmount(campaign, p);
      if (amountCents <= 0) {
        record(p, 0, {
          status: "failed",
          code: "invalid_amount",
          message: "There is nothing to charge for this pledge.",
          retryable: false,
        });
        continue;
      }
      let result: ChargeResult;
      try {
        result = await gateway.charge({
          pledgeId: p.id,
          campaignId,
          userId: p.userId,
          paymentMethodId: p.paymentMethodId,
          amountCents,
          attempt: p.chargeAttempts,
          customerId: p.customerId,
        });
      } catch (err) {
        // Unknown outcome (network, provider down): keep the claim; once it is stale a later run
        // (the sweeper) re-drives it with the same idempotency key.
        console.warn(
          `[charging] pledge ${p.id} attempt ${p.chargeAttempts}: outcome unknown, will retry: ${(err as Error).message}`,
        );
        counts.unknown++;
        continue;
      }
      record(p, amountCents, result);
    }
  };
  // Every lane ends (a claim error ends each at its next claim) and every outcome is written (or
  // given up on) before the run reports, fails or finalizes.
  const lanes = await Promise.allSettled(Array.from({ length: concurrency }, lane));
  await claiming;
  await (checking as Promise<void> | null)?.catch(() => {}); // assigned by the lanes' closures
  notCharged.push(...queue.splice(0));
  try {
    await giveBackClaims(notCharged);
  } catch (err) {
    // They stay claimed; once stale, a later run takes them (same attempt: nothing was sent).
    console.warn(
      `[charging] ${notCharged.length} claim(s) not given back, a later run will take them: ${(err as Error).message}`,
    );
  }
  while (recording.size > 0) await Promise.all([...recording]);
  const failedLane = lanes.find((l) => l.status === "rejected");
  if (failedLane) throw failedLane.reason;
  if (counts.charged > 0 || counts.failed > 0) await kickEmailSender();
  await finalizeIfDone(campaignId);
}

/**
 * Charges every eligible pledge of a campaign whose threshold has been crossed, then marks it
 * charged. Safe to run any number of times, concurrently, after a crash. Returns the campaign's
 * charge state afterwards (all pledges, not just those this run charged).
 */
export async function runCharging(campaignId: string, opts: RunOptions = {}): Promise<RunResult> {
  await chargeCampaign(campaignId, opts, { charged: 0, failed: 0, unknown: 0 });
  return getChargeSummary(campaignId, { all: true });
}

/** check-and-charge calls per client address and event (DESIGN §1: rate-limited per address and event). */
export const CHECK_AND_CHARGE_LIMIT = { limit: 20, windowMs: 60_000 };

/**
 * POST /api/check-and-charge: anyone may ask about an event they can see; only the database
 * decides. Charges when the campaign has crossed its threshold (or the recount shows it has), and
 * reports the campaign's charge state: SPEC's four keys for everyone, the per-pledge rows only to
 * the organizer and admins (a backer: their own pledge's). A settled event is only read.
 */
export async function checkAndCharge(
  campaignId: string,
  viewer: Viewer | null,
  clientAddress: string | null = null,
): Promise<RunResult> {
  const campaign = await loadCampaignFor(viewer, campaignId, "see");
  await consume(
    { key: `check-and-charge:${clientAddress ?? "unknown"}:${campaignId}`, ...CHECK_AND_CHARGE_LIMIT },
    (ms) => `Too many requests for this event. Please try again in ${secondsText(ms)}.`,
  );
  const audience = seesAllIdentities(viewer, campaign)
    ? ({ all: true } as const)
    : viewer
      ? { userId: viewer.id }
      : null;
  const status = await fundIfThresholdMet(campaignId);
  if (!status || status === "charged" || !inStatuses(CONFIRMED_STATUSES, status))
    return getChargeSummary(campaignId, audience);
  // A big event takes longer to charge than a request should last: the job finishes what this
  // request does not get to (queuing twice is harmless).
  await requestCharging(campaignId);
  await chargeCampaign(
    campaignId,
    { timeBudgetMs: HTTP_TIME_BUDGET_MS },
    { charged: 0, failed: 0, unknown: 0 },
  );
  return getChargeSummary(campaignId, audience);
}

/**
 * Manual charge from the manage page (creator or admin): charges the pledges not yet charged,
 * including earlier soft declines; hard declines wait for the backer's new card. Returns what this
 * call charged and what failed.
 */
export async function chargeOutstanding(
  campaignId: string,
  viewer: Viewer | null,
  opts: Omit<RunOptions, "retryFailed"> = {},
): Promise<{ totalCharged: number; totalFailed: number }> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  // An unknown event and someone else's event get the same answer (SPEC §6), so ids cannot be probed.
  await loadCampaignFor(viewer, campaignId, "charge");
  await consume(
    { key: `manual-charge:${campaignId}`, ...MANUAL_CHARGE_LIMIT },
    (ms) => `Charging was just run for this event. Please try again in ${secondsText(ms)}.`,
  );
  const status = await fundIfThresholdMet(campaignId);
  if (status === "cancelled")
    throw new AppError("CONFLICT", "This event was cancelled, so nobody can be charged.");
  if (status === "expired")
    throw new AppError("CONFLICT", "This event ended without reaching its goal, so nobody can be charged.");
  if (!status || !inStatuses(CONFIRMED_STATUSES, status)) {
    throw new AppError("CONFLICT", "This event has not reached its goal yet, so nobody can be charged.");
  }
  const counts = { charged: 0, failed: 0, unknown: 0 };
  await requestCharging(campaignId);
  await chargeCampaign(campaignId, { timeBudgetMs: HTTP_TIME_BUDGET_MS, ...opts, retryFailed: true }, counts);
  return { totalCharged: counts.charged, totalFailed: counts.failed };
}

/** Campaigns the sweeper must (re)drive: crossed the threshold and still hold chargeable pledges. */
export async function listCampaignsNeedingCharge(limit = 100): Promise<string[]> {
  const staleBefore = new Date(Date.now() - STALE_CLAIM_MS);
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT c."id" FROM "Campaign" c
    WHERE c."status" IN (${statusIn(CONFIRMED_STATUSES)})
      AND (c."status" <> 'charged' OR EXISTS (
        SELECT 1 FROM "Pledge" p WHERE p."campaignId" = c."id" AND p."paymentMethodId" IS NOT NULL AND p."charged" = false
          AND (p."chargeStatus" = 'none' OR (p."chargeStatus" = 'processing' AND p."chargeClaimedAt" < ${staleBefore}))))
    ORDER BY c."fundedAt" ASC NULLS FIRST
    LIMIT ${limit}`;
  return rows.map((r) => r.id);
}

export type PayPledgeResult =
  | { status: "succeeded" }
  | { status: "failed"; message: string }
  | { status: "requires_action"; clientSecret: string };

const RECOVERABLE = ["failed", "requires_action"] as const;

/**
 * Why the recovery page may not take money now, or null: a cancelled or expired event is not
 * charged (issue 14: a payment taken after a cancellation was refunded a minute later).
 */
export function paymentClosedReason(campaignStatus: string): string | null {
  if (campaignStatus === "cancelled")
    return "This event was cancelled, so there is nothing to pay. Nobody will be charged.";
  if (campaignStatus === "expired")
    return "This event did not reach its goal, so there is nothing to pay. Nobody will be charged.";
  return null;
}

async function ownedPledge(viewer: Viewer, pledgeId: string) {
  const pledge = await db.pledge.findUnique({
    where: { id: pledgeId },
    select: {
      id: true,
      userId: true,
      campaignId: true,
      amountCents: true,
      chargeStatus: true,
      paymentIntentId: true,
      chargeAttempts: true,
      campaign: { select: { ticketPriceCents: true, pactType: true, status: true } },
    },
  });
  // Someone else's pledge does not exist for this viewer.
  if (!pledge || pledge.userId !== viewer.id) throw new AppError("NOT_FOUND", "Commitment not found.");
  return pledge;
}

/**
 * The backer pays a failed or authentication-blocked charge on-session with a newly saved card
 * (DESIGN §1 "failed charges"). The pledge is claimed like any charge (new attempt, new idempotency
 * key); with Stripe, a card that needs authentication returns a client secret for the browser to
 * complete with Stripe.js, then `confirmPledgePayment` records the result.
 */
export async function payPledgeOnSession(
  viewer: Viewer & { email: string },
  input: { pledgeId: string; paymentMethodId: string },
): Promise<PayPledgeResult> {
  const pledge = await ownedPledge(viewer, input.pledgeId);
  if (pledge.chargeStatus === "succeeded")
    throw new AppError("CONFLICT", "This commitment has already been paid.");
  const closed = paymentClosedReason(pledge.campaign.status);
  if (closed) throw new AppError("CONFLICT", closed);
  if (!(RECOVERABLE as readonly string[]).includes(pledge.chargeStatus)) {
    throw new AppError("CONFLICT", "There is no failed payment to complete for this commitment.");
  }
  const gateway = getGateway();
  const card = await gateway.getCard(viewer, input.paymentMethodId);
  const claimed = await db.$queryRaw<{ chargeAttempts: number }[]>`
    UPDATE "Pledge" SET "chargeStatus" = 'processing', "chargeClaimedAt" = clock_timestamp(), "chargeAttempts" = "chargeAttempts" + 1,
      "paymentMethodId" = ${card.paymentMethodId}, "cardBrand" = ${card.brand}, "cardLast4" = ${card.last4}
    WHERE "id" = ${pledge.id} AND "userId" = ${viewer.id} AND "chargeStatus" IN ('failed', 'requires_action')
      AND EXISTS (SELECT 1 FROM "Campaign" c WHERE c."id" = "Pledge"."campaignId" AND c."status" IN (${statusIn(CONFIRMED_STATUSES)}))
    RETURNING "chargeAttempts"`;
  if (!claimed[0]) throw new AppError("CONFLICT", "A payment for this commitment is already in progress.");
  const amountCents = pledgeChargeCents(pledge.campaign, pledge);
  const result = await gateway.chargeOnSession({
    pledgeId: pledge.id,
    campaignId: pledge.campaignId,
    userId: viewer.id,
    paymentMethodId: card.paymentMethodId,
    amountCents,
    attempt: claimed[0].chargeAttempts,
  });
  await recordChargeResult(pledge.id, amountCents, result, { notify: false });
  if (result.status === "succeeded") {
    await finalizeIfDone(pledge.campaignId);
    return { status: "succeeded" };
  }
  if (result.status === "requires_action") {
    const { clientSecret } = await gateway.retrieveIntent(result.paymentIntentId);
    if (clientSecret) return { status: "requires_action", clientSecret };
    return { status: "failed", message: result.message };
  }
  return { status: "failed", message: result.message };
}

/** After the browser completed authentication: reads the payment's state from the provider and records it. */
export async function confirmPledgePayment(viewer: Viewer, pledgeId: string): Promise<PayPledgeResult> {
  const pledge = await ownedPledge(viewer, pledgeId);
  if (pledge.chargeStatus === "succeeded") return { status: "succeeded" };
  if (!pledge.paymentIntentId || pledge.chargeStatus !== "requires_action") {
    throw new AppError("CONFLICT", "There is no payment waiting for authentication.");
  }
  const { result, metadata } = await getGateway().retrieveIntent(pledge.paymentIntentId);
  if (metadata.pledgeId && metadata.pledgeId !== pledge.id)
    throw new AppError("CONFLICT", "That payment belongs to another commitment.");
  if (result.status === "succeeded") {
    await recordChargeResult(pledge.id, pledgeChargeCents(pledge.campaign, pledge), result);
    await finalizeIfDone(pledge.campaignId);
    return { status: "succeeded" };
  }
  return {
    status: "failed",
    message:
      result.status === "failed" ? result.message : "Authentication was not completed. Please try again.",
  };
}
