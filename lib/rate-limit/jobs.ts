import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { pruneHits } from "@/lib/rate-limit/service";

/** Hourly: drop rate-limit hits older than a day (every window is shorter), so the table stays small. */
const pruneRateLimitHitsJob = defineJob<Record<string, never>>({
  name: "rate-limit-prune",
  cron: "17 * * * *",
  scheduleData: {},
  retryLimit: 0,
  handler: async () => {
    await pruneHits();
  },
});

export const rateLimitJobs = [pruneRateLimitHitsJob];
