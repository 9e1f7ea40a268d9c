// Next.js calls register() once per server process at start-up: the background workers run inside
// every app instance (pg-boss hands each job to exactly one of them).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  if (process.env.JOBS_ENABLED === "false") return;
  const { startWorkers } = await import("./lib/jobs/worker");
  try {
    await startWorkers();
  } catch (err) {
    console.warn(`[jobs] workers not started: ${(err as Error).message}`);
  }
}
