import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { refundOwedPledges } from "@/lib/ledger/refunds";

/**
 * Every minute: finish the refunds owed (cancelled events, withdrawals after a change, places given
 * up and taken): failed attempts, charges that completed after the cancellation.
 */
const refundSweeperJob = defineJob<Record<string, never>>({
  name: "refund-sweeper",
  cron: "* * * * *",
  scheduleData: {},
  retryLimit: 0,
  handler: async () => {
    await refundOwedPledges();
  },
});

export const ledgerJobs = [refundSweeperJob];
