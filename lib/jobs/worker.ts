import "server-only";
import { getBoss } from "@/lib/jobs/boss";
import type { JobDefinition } from "@/lib/jobs/types";

/**
 * Starts the workers and schedules of the given jobs on this instance (called from
 * instrumentation.ts with every job of the app, lib/all-jobs.ts).
 */
export async function startWorkers(jobs: JobDefinition[]) {
  const boss = await getBoss();
  for (const job of jobs) {
    await boss.createQueue(job.name, {
      name: job.name,
      retryLimit: job.retryLimit ?? 5,
      retryDelay: 5,
      retryBackoff: true,
    });
    const handler = job.handler;
    const workers = job.concurrency ?? 1;
    for (let i = 0; i < workers; i++) {
      await boss.work(job.name, { pollingIntervalSeconds: 2 }, async (jobs) => {
        for (const j of jobs) await handler(j.data as object);
      });
    }
    if (job.cron) await boss.schedule(job.name, job.cron, job.scheduleData ?? {}, { singletonKey: job.name });
  }
}
