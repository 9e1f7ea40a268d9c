import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { EMAIL_SEND_JOB, sendPendingEmails } from "@/lib/email/service";

/**
 * One queue for sending: queued on demand right after a cause commits (kickEmailSender, data
 * EMAIL_KICK_DATA) and run every minute by schedule as the sweeper, so an email whose kick was lost
 * still goes out.
 * A run that fails as a whole (database down) is retried by pg-boss.
 */
const emailSendJob = (derive: () => Promise<unknown>) =>
  defineJob<{ kick?: boolean }>({
    name: EMAIL_SEND_JOB,
    cron: "* * * * *",
    scheduleData: {},
    retryLimit: 5,
    handler: async (data) => {
      // Causes whose services did not queue their email in their own transaction (see lib/derived-emails.ts):
      // the per-minute run only. A kick follows a cause that queued its own email; deriving on every
      // kick rescanned the day's pledges several times a second under a burst of commits.
      if (!data?.kick) await derive();
      // Drain in batches so a burst (an event of thousands confirming) does not wait for the next minute.
      for (let i = 0; i < 20; i++) {
        const r = await sendPendingEmails({ limit: 100 });
        if (r.sent + r.stored < 100) break;
      }
    },
  });

/**
 * The outbox's jobs. `derive` queues the emails derived from committed state (lib/derived-emails.ts),
 * handed in by lib/all-jobs.ts: the outbox imports no domain.
 */
export const emailJobs = (derive: () => Promise<unknown>) => [emailSendJob(derive)];
