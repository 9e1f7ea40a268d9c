import "server-only";
import { db, Prisma } from "@/lib/db";
import { setConfirmed } from "@/lib/events/counters";
import { beginCharging, chargedFree, chargedPaid } from "@/lib/events/status";
import { memberPledgeSql } from "@/lib/events/sql";
import { env } from "@/lib/env";
import { getGateway } from "@/lib/payments/gateway";
import type { PaymentGateway } from "@/lib/payments/types";
import { kickEmailSender } from "@/lib/email/service";
import type { ChargeSummary } from "@/lib/charging/queries";
import { CONFIRMED_STATUSES, inStatuses, isFreeEvent } from "@/lib/events/lifecycle";
import {
  confirmFreePledges,
  OPEN_STATES,
  pledgeStatesIn,
  type ClaimedPledge,
} from "@/lib/ledger/pledge-state";
import { chargeLane, claimFeed, giveBack, resultRecorder, type Lane } from "@/lib/charging/pipeline";

/**
 * The money path (DESIGN §1 "charging"). A pledge moves none → processing → succeeded | failed |
 * requires_action. The move to `processing` is a conditional UPDATE (the CLAIM), so however many
 * runs execute at once — retries, the sweeper, check-and-charge calls, other instances — one pledge
 * is charged by one run. The idempotency key is derived from (pledge id, attempt number); a run
 * that crashed after the claim leaves `processing`, and the run that picks the stale claim up sends
 * the SAME key, so the provider returns the original payment instead of charging again.
 */
export type CampaignForCharge = {
  id: string;
  status: string;
  goal: number;
  ticketPriceCents: number;
  pactType: string | null;
  deadline: Date;
  /** issue 36: the show-up deposit charged with each ticket (0: none) */
  depositCents: number;
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
    select: {
      id: true,
      status: true,
      goal: true,
      ticketPriceCents: true,
      pactType: true,
      deadline: true,
      depositCents: true,
    },
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
    if (!(await chargedFree(tx, campaignId, now))) return;
    const confirmed = await confirmFreePledges(tx, campaignId, now);
    await setConfirmed(tx, campaignId, confirmed);
  });
}

/** Sets `charged` with the totals once no pledge is left to charge (idempotent; recomputes totals). */
export async function finalizeIfDone(campaignId: string): Promise<boolean> {
  // "a member still to charge": the charge state is pledge-state's vocabulary
  return chargedPaid(
    db,
    campaignId,
    Prisma.sql`p."paymentMethodId" IS NOT NULL
        AND p."charged" = false AND p."chargeStatus" IN (${pledgeStatesIn(OPEN_STATES)}) AND ${memberPledgeSql("p")}`,
  );
}

export type RunCounts = { charged: number; failed: number; unknown: number };

/**
 * Charges a confirmed campaign's claimed pledges (DESIGN §1 "charging"), in named steps: start the
 * run (free events are confirmed at once), feed claims to the lanes, charge in `concurrency` lanes,
 * record the outcomes, give back what was not charged, finalize.
 */
export async function chargeCampaign(campaignId: string, opts: RunOptions, counts: RunCounts): Promise<void> {
  const campaign = await campaignToCharge(campaignId);
  if (!campaign) return;
  const gateway = opts.gateway ?? getGateway();
  const concurrency = Math.max(1, opts.concurrency ?? env().CHARGE_CONCURRENCY);
  const feed = await claimFeed(campaignId, opts, concurrency);
  const recorder = resultRecorder(counts, gateway);
  const notCharged: ClaimedPledge[] = [];
  const ctx: Lane = { campaign, gateway, feed, recorder, counts, notCharged };
  // Every lane ends (a claim error ends each at its next claim) and every outcome is written (or
  // given up on) before the run reports, fails or finalizes.
  const lanes = await Promise.allSettled(Array.from({ length: concurrency }, () => chargeLane(ctx)));
  await feed.settle();
  notCharged.push(...feed.drain());
  await giveBack(notCharged);
  await recorder.done();
  const failedLane = lanes.find((l) => l.status === "rejected");
  if (failedLane) throw failedLane.reason;
  if (counts.charged > 0 || counts.failed > 0) await kickEmailSender();
  await finalizeIfDone(campaignId);
  // A place a failed promotion gave up went to the next in line: charge them now, not at the
  // sweeper's next minute (each round needs another failed promotion, so this ends).
  if (recorder.movedOn() > 0 && Date.now() < feed.stopAt) await chargeCampaign(campaignId, opts, counts);
}

/** The campaign to charge, marked `charging`; null when there is nothing to charge (or it was free). */
async function campaignToCharge(campaignId: string): Promise<CampaignForCharge | null> {
  const campaign = await loadCampaign(campaignId);
  if (!campaign || !inStatuses(CONFIRMED_STATUSES, campaign.status)) return null;
  if (isFreeEvent(campaign)) {
    await confirmFree(campaignId);
    return null;
  }
  await beginCharging(db, campaignId, new Date());
  return campaign;
}
