import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { refundOwedPledges } from "@/lib/cancellation/service";

/** Every minute: finish refunds of cancelled events (failed attempts, charges that completed after the cancellation). */
const refundSweeperJob = defineJob<Record<string, never>>({
  name: "refund-sweeper",
  cron: "* * * * *",
  scheduleData: {},
  retryLimit: 0,
  handler: async () => {
    await refundOwedPledges();
  },
});

export const cancellationJobs = [refundSweeperJob];
