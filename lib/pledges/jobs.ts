import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { kickEmailSender } from "@/lib/email/service";
import { queueOrganizerDigests } from "@/lib/pledges/digest";
import { runWaitlistPass } from "@/lib/campaigns/waitlist";

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

/** A few minutes past every hour: the organizers' commitment digests for the hours just ended. */
const organizerDigestJob = defineJob<Record<string, never>>({
  name: "organizer-commit-digest",
  cron: "5 * * * *",
  scheduleData: {},
  retryLimit: 3,
  handler: async () => {
    if ((await queueOrganizerDigests()) > 0) await kickEmailSender();
  },
});

export const pledgeJobs = [waitlistJob, organizerDigestJob];
