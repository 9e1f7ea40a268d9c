import "server-only";
import { tip } from "@/lib/events/status";
import { db, Prisma } from "@/lib/db";
import { withEvent } from "@/lib/events/lock";
import { memberPledgeSql, statusIn } from "@/lib/events/sql";
import { requestCharging } from "@/lib/ledger/queue";
import { AppError } from "@/lib/errors";
import { consume, secondsText } from "@/lib/rate-limit/service";
import { CONFIRMED_STATUSES, inStatuses, isCollecting, recountMeetsGoal } from "@/lib/events/lifecycle";
import { seesAllIdentities, type Actor } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";
import { getChargeSummary } from "@/lib/charging/queries";
import { STALE_CLAIM_MS } from "@/lib/ledger/pledge-state";
import { chargeCampaign, type RunOptions, type RunResult } from "@/lib/charging/run";

/**
 * The charging entry points (DESIGN §1 "charging"): the threshold recount, check-and-charge, the
 * manual charge, the queue and the sweeper's list. The pipeline is lib/charging/run.ts; every
 * pledge state write is lib/ledger/pledge-state.ts; the backer's own payment is recovery.ts.
 */
export { CHARGE_JOB, requestCharging } from "@/lib/ledger/queue";

/** How long an HTTP request may spend charging before it answers; the job carries on. */
const HTTP_TIME_BUDGET_MS = 20_000;

/**
 * Moves a pending campaign whose threshold is met (counted from the pledges, per DESIGN §1) to
 * `funded`. The commit transaction normally does this; this is the server-side check behind
 * POST /api/check-and-charge and the manual charge, with the campaign row locked.
 */
async function fundIfThresholdMet(campaignId: string): Promise<string | null> {
  // Only a pending campaign can change here: anything else is answered without taking the lock.
  const current = await db.campaign.findUnique({ where: { id: campaignId }, select: { status: true } });
  if (!current || current.status !== "pending") return current?.status ?? null;
  type Row = {
    status: string;
    goal: number;
    ticketPriceCents: number;
    depositCents: number;
    pactType: string | null;
    deadline: Date;
  };
  const read = Prisma.sql`"status"::text AS "status", "goal", "ticketPriceCents", "depositCents", "pactType"::text AS "pactType", "deadline"`;
  return db.$transaction((tx) =>
    withEvent<string | null, Row>(
      tx,
      campaignId,
      async (c) => {
        if (!c) return null;
        if (!isCollecting(c, new Date())) return c.status;
        const [counts] = await tx.$queryRaw<{ all: number; withCard: number; cents: number }[]>`
      SELECT count(*)::int AS "all", count("paymentMethodId")::int AS "withCard", COALESCE(sum("amountCents"), 0)::float8 AS "cents"
      FROM "Pledge" WHERE "campaignId" = ${campaignId} AND ${memberPledgeSql()}`;
        if (!recountMeetsGoal(c, counts)) return c.status;
        await tip(tx, campaignId, new Date());
        return "funded";
      },
      { read },
    ),
  );
}

/** Manual charges per event (issue 14: 8 clicks in 1.8 s made 8 attempts on one card). */
const MANUAL_CHARGE_LIMIT = { limit: 3, windowMs: 60_000 };

/** check-and-charge calls per client address and event (DESIGN §1: rate-limited per address and event). */
const CHECK_AND_CHARGE_LIMIT = { limit: 20, windowMs: 60_000 };

/**
 * POST /api/check-and-charge: anyone may ask about an event they can see; only the database
 * decides. Charges when the campaign has crossed its threshold (or the recount shows it has), and
 * reports the campaign's charge state: SPEC's four keys for everyone, the per-pledge rows only to
 * the organizer and admins (a backer: their own pledge's). A settled event is only read.
 */
export async function checkAndCharge(
  campaignId: string,
  viewer: Actor,
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
  viewer: Actor,
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
        SELECT 1 FROM "Pledge" p WHERE p."campaignId" = c."id" AND p."paymentMethodId" IS NOT NULL AND p."charged" = false AND ${memberPledgeSql("p")}
          AND (p."chargeStatus" = 'none' OR (p."chargeStatus" = 'processing' AND p."chargeClaimedAt" < ${staleBefore}))))
    ORDER BY c."fundedAt" ASC NULLS FIRST
    LIMIT ${limit}`;
  return rows.map((r) => r.id);
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
