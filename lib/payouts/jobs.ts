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
    const due = await listDuePayouts(new Date(), 500);
    // a few events at a time: each run is its own claim, so order does not matter
    const lane = async () => {
      for (let id = due.shift(); id; id = due.shift()) {
        try {
          await runPayout(id);
        } catch (err) {
          console.warn(`[payouts] ${id}: ${(err as Error).message}; the next sweep retries`);
        }
      }
    };
    await Promise.all([lane(), lane(), lane(), lane()]);
  },
});

export const payoutJobs = [payoutSweeperJob];
