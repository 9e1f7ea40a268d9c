import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { runWaitlistPass } from "@/lib/pledges/waitlist";

/**
 * The waitlist pass (issue 20), every minute like the charge sweeper: failed promotions reported by
 * a webhook go back in line, places left open are filled, and waitlists close at the event start.
 */
const waitlistJob = defineJob<Record<string, never>>({
  name: "waitlist-pass",
  cron: "* * * * *",
  scheduleData: {},
  retryLimit: 0,
  handler: async () => {
    await runWaitlistPass();
  },
});

export const pledgeJobs = [waitlistJob];
