import "server-only";
import { db } from "@/lib/db";
import { statusIn } from "@/lib/events/sql";
import { CONFIRMED_STATUSES, pledgeChargeCents } from "@/lib/events/lifecycle";
import type { ChargeResult, PaymentGateway } from "@/lib/payments/types";
import { onChargeFailed } from "@/lib/charging/notify";
import { returnFailedPromotion } from "@/lib/campaigns/waitlist";
import {
  claimBatch,
  giveBackClaims,
  recordSuccesses,
  STALE_CLAIM_MS,
  type ClaimedPledge,
} from "@/lib/ledger/pledge-state";
import { recordOutcome, unitsOf, type ChargeUnit } from "@/lib/ledger/group-charges";
import type { CampaignForCharge, RunCounts, RunOptions } from "@/lib/charging/run";

/**
 * The charging run's pipeline (lib/charging/run.ts chargeCampaign): the claim feed, the live
 * check, the lanes that charge, the recorder of their outcomes.
 */

/** Whether new charges may start for the campaign (confirmed, not cancelled or expired meanwhile). */
async function campaignLive(campaignId: string): Promise<boolean> {
  const rows = await db.$queryRaw<{ live: boolean }[]>`
    SELECT "status" IN (${statusIn(CONFIRMED_STATUSES)}) AS "live" FROM "Campaign" WHERE "id" = ${campaignId}`;
  return rows[0]?.live === true;
}

/** A fresh claim is charged only if the campaign was seen live this recently (else it is looked at again). */
const LIVE_FRESH_MS = 50;

// A pipeline, so the provider always has `concurrency` charges in flight and the database work
// around them is done in batches off the charging lanes:
// - claims are taken `concurrency` at a time, one batch ahead of the lanes (claimFeed). A claimed
//   pledge waits here a fraction of a second: should the process die meanwhile, it is a stale claim
//   that a later run re-drives with the same idempotency key, like any claim; when the time budget
//   is spent, or the campaign is no longer live, the claims not charged are given back as they were;
// - a new charge starts only if the campaign was seen live within LIVE_FRESH_MS (by a claim or
//   a check shared by the lanes: liveGate), as close as the unbatched claim-then-charge was;
// - each lane charges a claimed pledge and hands the outcome to the recorder without waiting;
// - the recorder writes all successes pending at a time in one statement (failures one by one:
//   they notify the backer). An outcome not yet written keeps its claim, so a crash before the
//   write is re-driven with the same key and the provider replays the original answer.

type LiveGate = {
  /** a statement sent at `sent` (performance.now()) found the campaign live */
  sawLive(sent: number): void;
  mayStart(p: ClaimedPledge): Promise<boolean>;
  settle(): Promise<void>;
};

/** Whether a claimed pledge may be charged now: the campaign seen live within LIVE_FRESH_MS. */
function liveGate(campaignId: string): LiveGate {
  let liveAt = -Infinity; // when a statement that found the campaign live was sent
  let live = true;
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
  return {
    sawLive: (sent) => {
      liveAt = Math.max(liveAt, sent);
    },
    mayStart: async (p) => {
      // A stale claim is re-driven whatever the campaign's state (see claimBatch).
      if (p.prevStatus === "processing") return true;
      if (live && performance.now() - liveAt > LIVE_FRESH_MS) await checkLive();
      else if (live && performance.now() - liveAt > LIVE_FRESH_MS / 2) void checkLive().catch(() => {}); // keep it fresh ahead of the lanes
      return live;
    },
    settle: async () => {
      await (checking as Promise<void> | null)?.catch(() => {});
    },
  };
}

type ClaimFeed = {
  /** when the run stops claiming (the time budget) */
  stopAt: number;
  /** the next claimed unit (a pledge, or a group's seats: issue 37): none once the time budget is spent (what is left is given back) */
  next(): Promise<ChargeUnit | null>;
  mayStart(p: ClaimedPledge): Promise<boolean>;
  /** waits for the claim and the live check in flight */
  settle(): Promise<void>;
  /** the claims taken but not handed to a lane */
  drain(): ClaimedPledge[];
};

/** Claims `concurrency` pledges at a time, one batch ahead of the lanes. */
export async function claimFeed(
  campaignId: string,
  opts: RunOptions,
  concurrency: number,
): Promise<ClaimFeed> {
  const staleAfterMs = Math.max(0, Math.floor(opts.staleAfterMs ?? STALE_CLAIM_MS));
  // A run takes each pledge at most once: stale claims and (manual charge) soft declines are only
  // re-claimed if their claim predates this run, so a charge whose outcome stays unknown is not
  // hammered in a loop.
  const [{ now: runStart }] = await db.$queryRaw<{ now: Date }[]>`SELECT clock_timestamp() AS "now"`;
  const stopAt = opts.timeBudgetMs ? Date.now() + opts.timeBudgetMs : Infinity;
  const retryFailed = opts.retryFailed ?? false;
  const gate = liveGate(campaignId);
  const queue: ChargeUnit[] = [];
  let exhausted = false;
  let claiming: Promise<void> | null = null;
  let claimError: unknown = null;
  const claim = () => {
    if (!claiming) {
      const sent = performance.now();
      claiming = claimBatch(campaignId, staleAfterMs, runStart, retryFailed, concurrency)
        .then(async (rows) => {
          if (rows.length === 0) exhausted = true;
          // Fresh claims were selected only from a live campaign.
          if (rows.some((r) => r.prevStatus !== "processing")) gate.sawLive(sent);
          queue.push(...(await unitsOf(rows)));
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
  const next = async (): Promise<ChargeUnit | null> => {
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
  return {
    stopAt,
    next,
    mayStart: gate.mayStart,
    settle: async () => {
      await claiming;
      await gate.settle();
    },
    drain: () => queue.splice(0).flatMap((u) => u.seats),
  };
}

type Recorder = {
  /** `amountCents`: each seat's part (a unit of several seats was charged that × its seats) */
  record(u: ChargeUnit, amountCents: number, result: ChargeResult): void;
  /** failed promotions whose place went to the next in line */
  movedOn(): number;
  /** waits until every outcome is written (or given up on) */
  done(): Promise<void>;
};

/** Writes the lanes' outcomes: successes in batches, failures one by one (they notify the backer). */
export function resultRecorder(counts: RunCounts, gateway: PaymentGateway): Recorder {
  const succeeded: { pledgeId: string; amountCents: number; paymentIntentId: string }[] = [];
  const recording = new Set<Promise<void>>();
  let flushing: Promise<void> | null = null;
  let movedOn = 0;
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
  const recordFailure = async (p: ClaimedPledge, changed: boolean, seats: ClaimedPledge[]) => {
    if (!changed) return;
    counts.failed++;
    // A promotion from the waitlist that cannot be paid goes back in line and the place moves
    // on (issue 20: a group's promoted seats go back together); any other failure starts the
    // backer's recovery (a group's: one for its seats, on its first seat).
    let back = false;
    for (const seat of seats) if (await returnFailedPromotion(seat.id, gateway)) back = true;
    if (back) movedOn++;
    else await onChargeFailed(p.id);
  };
  const record = (u: ChargeUnit, amountCents: number, result: ChargeResult) => {
    const p = u.lead;
    // a pledge's success joins the batch; a failure, or a group's outcome (issue 37: one for all its
    // seats, one money row), is written on its own
    if (result.status === "succeeded" && p.chargeUnitId === null) {
      succeeded.push({ pledgeId: p.id, amountCents, paymentIntentId: result.paymentIntentId });
      if (!flushing) track((flushing = flushSuccesses()));
      return;
    }
    track(
      recordOutcome(u, amountCents, result).then(
        async (changed) => {
          if (result.status !== "succeeded") await recordFailure(p, changed, u.seats);
          else if (changed) counts.charged += u.seatCount;
        },
        (err) => {
          console.warn(
            `[charging] pledge ${p.id}: result not recorded, will be re-driven: ${(err as Error).message}`,
          );
          counts.unknown += u.seats.length;
        },
      ),
    );
  };
  return {
    record,
    movedOn: () => movedOn,
    done: async () => {
      while (recording.size > 0) await Promise.all([...recording]);
    },
  };
}

export type Lane = {
  campaign: CampaignForCharge;
  gateway: PaymentGateway;
  feed: ClaimFeed;
  recorder: Recorder;
  counts: RunCounts;
  /** claims a lane took but did not charge, given back at the end */
  notCharged: ClaimedPledge[];
};

/**
 * One charging lane: takes claimed units one at a time (a pledge, or a group's seats: one charge of
 * seats × price under the unit's first seat's key), charges each, hands the outcome on.
 */
export async function chargeLane(lane: Lane): Promise<void> {
  for (;;) {
    const u = await lane.feed.next();
    if (!u) return;
    if (!(await startsNow(lane, u))) continue;
    const amountCents = pledgeChargeCents(lane.campaign, u.lead);
    if (amountCents + lane.campaign.depositCents <= 0) {
      lane.recorder.record(u, 0, {
        status: "failed",
        code: "invalid_amount",
        message: "There is nothing to charge for this pledge.",
        retryable: false,
      });
      continue;
    }
    const result = await chargeOne(lane, u.lead, amountCents * u.seatCount, u.seatCount);
    if (result) lane.recorder.record(u, amountCents, result);
  }
}

/** Whether the lane may charge `p` now; if not, the claim is kept to be given back. */
async function startsNow(lane: Lane, u: ChargeUnit): Promise<boolean> {
  let start: boolean;
  try {
    start = await lane.feed.mayStart(u.lead);
  } catch (err) {
    lane.notCharged.push(...u.seats);
    throw err;
  }
  if (!start) lane.notCharged.push(...u.seats);
  return start;
}

/** The provider's answer for one claimed pledge (a unit's first seat); null when the outcome is unknown (claim kept). */
async function chargeOne(
  lane: Lane,
  p: ClaimedPledge,
  amountCents: number,
  seats: number,
): Promise<ChargeResult | null> {
  try {
    return await lane.gateway.charge({
      pledgeId: p.id,
      campaignId: lane.campaign.id,
      userId: p.userId,
      paymentMethodId: p.paymentMethodId,
      amountCents,
      // each seat's show-up deposit (issue 36) rides in the unit's one payment
      depositCents: lane.campaign.depositCents * seats,
      attempt: p.chargeAttempts,
      customerId: p.customerId,
    });
  } catch (err) {
    // Unknown outcome (network, provider down): keep the claim; once it is stale a later run
    // (the sweeper) re-drives it with the same idempotency key.
    console.warn(
      `[charging] pledge ${p.id} attempt ${p.chargeAttempts}: outcome unknown, will retry: ${(err as Error).message}`,
    );
    lane.counts.unknown++;
    return null;
  }
}

/** Gives back the claims not charged (they stay claimed if that fails: a later run takes them). */
export async function giveBack(notCharged: ClaimedPledge[]): Promise<void> {
  try {
    await giveBackClaims(notCharged);
  } catch (err) {
    // They stay claimed; once stale, a later run takes them (same attempt: nothing was sent).
    console.warn(
      `[charging] ${notCharged.length} claim(s) not given back, a later run will take them: ${(err as Error).message}`,
    );
  }
}
