import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { listDuePayouts, runPayout } from "@/lib/payouts/service";

/**
 * The payout sweeper (issue 23), every minute on any instance: events past their hold with money to
 * move, settled events whose pledges changed since (a late charge, a refund), and movements whose
 * outcome is not known yet (re-driven with their own idempotency key).
 */
const payoutSweeperJob = defineJob<Record<string, never>>({
  name: "payout-sweeper",
  cron: "* * * * *",
  scheduleData: {},
  retryLimit: 0,
  handler: async () => {
    for (const campaignId of await listDuePayouts()) {
      try {
        await runPayout(campaignId);
      } catch (err) {
        console.warn(`[payouts] ${campaignId}: ${(err as Error).message}; the next sweep retries`);
      }
    }
  },
});

export const payoutJobs = [payoutSweeperJob];
