import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { CHARGE_JOB, listCampaignsNeedingCharge, requestCharging, runCharging } from "@/lib/charging/service";
import { runPaymentRecovery } from "@/lib/charging/recovery-pass";

/**
 * The charge job runs one campaign's charging (queued by the threshold crossing, one per campaign
 * at a time). The sweeper runs every minute and re-queues any funded/charging campaign with
 * uncharged pledges, so a lost job or a crashed instance never leaves money uncollected.
 */
const chargeCampaignJob = defineJob<{ campaignId: string }>({
  name: CHARGE_JOB,
  concurrency: 2,
  retryLimit: 5,
  handler: async ({ campaignId }) => {
    await runCharging(campaignId);
  },
});

const chargeSweeperJob = defineJob<Record<string, never>>({
  name: "charge-sweeper",
  cron: "* * * * *",
  scheduleData: {},
  retryLimit: 0,
  handler: async () => {
    for (const campaignId of await listCampaignsNeedingCharge()) await requestCharging(campaignId);
  },
});

/**
 * Failed payments (DESIGN §1): drops closed windows, retries soft declines once, reminds every 48
 * hours. Every minute, like the sweeper: with nothing due it is three indexed reads.
 */
const paymentRecoveryJob = defineJob<Record<string, never>>({
  name: "payment-recovery",
  cron: "* * * * *",
  scheduleData: {},
  retryLimit: 0,
  handler: async () => {
    await runPaymentRecovery();
  },
});

export const chargingJobs = [chargeCampaignJob, chargeSweeperJob, paymentRecoveryJob];
