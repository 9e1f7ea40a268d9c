import "server-only";
import { defineJob } from "@/lib/jobs/types";
import { runDeadlines } from "@/lib/deadlines/service";
import { releaseUnmetConditions } from "@/lib/campaigns/membership";

/** Every minute: expire events past their deadline, release their cards, send 48-hour reminders. */
const deadlinesJob = defineJob<Record<string, never>>({
  name: "deadlines",
  cron: "* * * * *",
  scheduleData: {},
  retryLimit: 2,
  handler: async () => {
    await runDeadlines();
    // issue 21: at a confirmed event's deadline, conditions that never held are released
    await releaseUnmetConditions();
  },
});

export const deadlineJobs = [deadlinesJob];
