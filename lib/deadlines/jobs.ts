import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { runDeadlines } from "@/lib/deadlines/service";

/** Every minute: expire events past their deadline, release their cards, send 48-hour reminders. */
const deadlinesJob = defineJob<Record<string, never>>({
  name: "deadlines",
  cron: "* * * * *",
  scheduleData: {},
  retryLimit: 2,
  handler: async () => {
    await runDeadlines();
  },
});

export const deadlineJobs = [deadlinesJob];
