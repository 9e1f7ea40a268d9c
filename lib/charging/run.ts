import "server-only";
import { db } from "@/lib/db";
import { memberPledgeSql, statusIn } from "@/lib/campaigns/sql";
import { env } from "@/lib/env";
import { getGateway } from "@/lib/payments/gateway";
import type { ChargeResult, PaymentGateway } from "@/lib/payments/types";
import { onChargeFailed } from "@/lib/charging/notify";
import { returnFailedPromotion } from "@/lib/pledges/waitlist";
import { kickEmailSender } from "@/lib/email/service";
import type { ChargeSummary } from "@/lib/charging/queries";
import {
  CONFIRMED_STATUSES,
  inStatuses,
  isFreeEvent,
  pledgeChargeCents,
  SETTLING_STATUSES,
} from "@/lib/campaigns/lifecycle";
import {
  claimBatch,
  confirmFreePledges,
  giveBackClaims,
  OPEN_STATES,
  pledgeStatesIn,
  recordChargeResult,
  recordSuccesses,
  STALE_CLAIM_MS,
  type ClaimedPledge,
} from "@/lib/charging/pledge-state";

/**
 * The money path (DESIGN §1 "charging"). A pledge moves none → processing → succeeded | failed |
 * requires_action. The move to `processing` is a conditional UPDATE (the CLAIM), so however many
 * runs execute at once — retries, the sweeper, check-and-charge calls, other instances — one pledge
 * is charged by one run. The idempotency key is derived from (pledge id, attempt number); a run
 * that crashed after the claim leaves `processing`, and the run that picks the stale claim up sends
 * the SAME key, so the provider returns the original payment instead of charging again.
 */
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
  /** retry soft declines (the manual charge); a date: only those that failed before it (the recovery pass) */
  retryFailed?: boolean | Date;
  staleAfterMs?: number;
  gateway?: PaymentGateway;
  /** stop claiming new pledges after this long (HTTP callers); the queued job finishes the rest */
  timeBudgetMs?: number;
};

async function loadCampaign(campaignId: string): Promise<CampaignForCharge | null> {
  return db.campaign.findUnique({
    where: { id: campaignId },
    select: { id: true, status: true, goal: true, ticketPriceCents: true, pactType: true, deadline: true },
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
      where: { id: campaignId, status: { in: [...SETTLING_STATUSES] } },
      data: {
        status: "charged",
        chargedAt: now,
        chargeType: "free",
        totalChargedCents: 0,
        lastStatusUpdate: now,
      },
    });
    if (moved.count === 0) return;
    const confirmed = await confirmFreePledges(tx, campaignId, now);
    await tx.campaign.update({ where: { id: campaignId }, data: { totalCharged: confirmed } });
  });
}

/** Whether new charges may start for the campaign (confirmed, not cancelled or expired meanwhile). */
async function campaignLive(campaignId: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ live: boolean }[]>`
    SELECT "status" IN (${statusIn(CONFIRMED_STATUSES)}) AS "live" FROM "Campaign" WHERE "id" = ${campaignId}`;
  return rows[0]?.live === true;
}

/** A fresh claim is charged only if the campaign was seen live this recently (else it is looked at again). */
const LIVE_FRESH_MS = 50;

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
          AND p."charged" = false AND p."chargeStatus" IN (${pledgeStatesIn(OPEN_STATES)}) AND ${memberPledgeSql("p")}
      )`;
  return n > 0;
}

type RunCounts = { charged: number; failed: number; unknown: number };

export async function chargeCampaign(campaignId: string, opts: RunOptions, counts: RunCounts): Promise<void> {
  const campaign = await loadCampaign(campaignId);
  if (!campaign || !inStatuses(CONFIRMED_STATUSES, campaign.status)) return;
  if (isFreeEvent(campaign)) {
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
  const retryFailed = opts.retryFailed ?? false;

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
        async (changed) => {
          if (!changed) return;
          counts.failed++;
          // A promotion from the waitlist that cannot be paid goes back in line and the place moves
          // on (issue 20); any other failure starts the backer's recovery.
          if (await returnFailedPromotion(p.id, gateway)) movedOn++;
          else await onChargeFailed(p.id);
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

  let movedOn = 0; // failed promotions whose place went to the next in line
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
      const amountCents = pledgeChargeCents(campaign, p);
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
  // A place a failed promotion gave up went to the next in line: charge them now, not at the
  // sweeper's next minute (each round needs another failed promotion, so this ends).
  if (movedOn > 0 && Date.now() < stopAt) await chargeCampaign(campaignId, opts, counts);
}
