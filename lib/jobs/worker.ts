import "server-only";
import { allJobs } from "@/lib/jobs/definitions";
import { getBoss } from "@/lib/jobs/boss";

/** Starts the workers and schedules of every job on this instance (called from instrumentation.ts). */
export async function startWorkers() {
  const boss = await getBoss();
  for (const job of await allJobs()) {
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
