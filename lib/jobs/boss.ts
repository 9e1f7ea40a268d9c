import "server-only";
import PgBoss from "pg-boss";
import { env } from "@/lib/env";

/**
 * pg-boss on the app's own PostgreSQL (schema `pgboss`): every app instance shares one queue, so
 * jobs run once across instances and survive restarts. See lib/all-jobs.ts for the jobs.
 */
const g = globalThis as unknown as { __pnBoss?: Promise<PgBoss> };

export function getBoss(): Promise<PgBoss> {
  g.__pnBoss ??= (async () => {
    const boss = new PgBoss({
      connectionString: env().DATABASE_URL,
      schema: "pgboss",
      max: 4,
      application_name: "pactnexus-jobs",
    });
    boss.on("error", (err) => console.warn(`[jobs] ${err.message}`));
    await boss.start();
    return boss;
  })().catch((err) => {
    g.__pnBoss = undefined;
    throw err;
  });
  return g.__pnBoss;
}

const created = new Set<string>();

/**
 * Queues a job. With JOBS_ENABLED=false (tests, CLI scripts) nothing is queued: those callers run
 * the work directly, and in the app the periodic sweepers find anything a lost job left behind.
 */
export async function enqueue(
  name: string,
  data: object,
  options: PgBoss.SendOptions = {},
): Promise<string | null> {
  if (!env().JOBS_ENABLED) return null;
  const boss = await getBoss();
  if (!created.has(name)) {
    await boss.createQueue(name);
    created.add(name);
  }
  return boss.send(name, data, options);
}
