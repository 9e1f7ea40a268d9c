// Next.js calls register() once per server process at start-up: the background workers run inside
// every app instance (pg-boss hands each job to exactly one of them).
export async function register() {
  if (process.env.NEXT_RUNTIME !== "nodejs") return;
  await announceGoogleTestIssuer();
  if (process.env.JOBS_ENABLED === "false") return;
  const { startWorkers } = await import("./lib/jobs/worker");
  const { allJobs } = await import("./lib/all-jobs");
  try {
    await startWorkers(await allJobs());
  } catch (err) {
    console.warn(`[jobs] workers not started: ${(err as Error).message}`);
  }
}

/** Says loudly, once per process, that Google sign-in goes to a local test issuer (or why the setting is ignored). */
async function announceGoogleTestIssuer() {
  if (!process.env.GOOGLE_TEST_ISSUER) return;
  const { googleTestIssuer } = await import("./lib/env");
  const { issuer, ignored } = googleTestIssuer();
  const bar = "!".repeat(78);
  console.warn(
    issuer
      ? `${bar}\n[auth] GOOGLE_TEST_ISSUER is set: "Continue with Google" signs in at the LOCAL TEST ISSUER\n[auth] ${issuer}, not at Google. This setting is for the test suites only.\n${bar}`
      : `${bar}\n[auth] GOOGLE_TEST_ISSUER is IGNORED: ${ignored}. Google sign-in uses Google.\n${bar}`,
  );
}
