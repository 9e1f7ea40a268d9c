import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { CHARGE_JOB, listCampaignsNeedingCharge, requestCharging, runCharging } from "@/lib/charging/service";

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

export const chargingJobs = [chargeCampaignJob, chargeSweeperJob];
