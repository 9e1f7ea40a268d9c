/**
 * The fault-injection suite (issue 9, item 3): `npm run test:reliability`.
 *
 * Starts its own embedded PostgreSQL (outside the app, so the app can be killed and the database
 * stopped independently), a fake Stripe API (real `stripe` SDK over HTTP, 30 ms latency) and a fake
 * SMTP server, builds the app once (NEXT_DIST_DIR=.next-reliability; skipped when up to date) and
 * runs the production server through scripts/start.mjs on port 3120. Prints one line per scenario
 * and exits non-zero if any scenario fails. Logs: .data/reliability/.
 *
 * RELIABILITY_ONLY=9,10 runs only the scenarios with those numbers (while working on one of them);
 * the whole suite runs without it. Scenarios 9 and 10 (two instances) run twice where PgBouncer is
 * installed: directly, then through it (RELIABILITY_PGBOUNCER=<binary>, or "false" to skip).
 */
import fs from "node:fs";
import path from "node:path";
import { formatLine, root, startApp, stopApp, runNode, type ScenarioResult } from "./harness";

const PORT = Number(process.env.RELIABILITY_PORT || 3120);
const SMTP_FAIL_FIRST = 3;
const WEBHOOK_SECRET = "whsec_reliability_suite";
const ONLY = process.env.RELIABILITY_ONLY?.split(",").map((s) => s.trim());
const want = (n: string) => !ONLY || ONLY.includes(n);

async function main() {
  const t0 = Date.now();
  const dir = path.join(root, ".data", "reliability");
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  const say = (m: string) => console.log(`[reliability] ${m}`);

  const { startEmbeddedPostgres } = (await import(path.join(root, "scripts/lib/embedded-db.mjs"))) as {
    startEmbeddedPostgres: (o: { dataDir: string; port?: number; fast?: boolean }) => Promise<{
      url: (db?: string) => string;
      pg: { start(): Promise<void>; stop(): Promise<void> };
      stop(): Promise<void>;
    }>;
  };
  const { ensureDatabase } = (await import(path.join(root, "scripts/lib/database-url.mjs"))) as {
    ensureDatabase: (admin: string, name: string) => Promise<void>;
  };
  const embedded = await startEmbeddedPostgres({ dataDir: path.join(dir, "pg"), port: 0, fast: true });
  await ensureDatabase(embedded.url(), "pactnexus_reliability");
  await ensureDatabase(embedded.url(), "pactnexus_reliability_email");
  const url = embedded.url("pactnexus_reliability");
  const emailUrl = embedded.url("pactnexus_reliability_email");
  process.env.DATABASE_URL = url;
  runNode(["--experimental-wasm-modules", "--no-warnings", "scripts/migrate.mjs", "apply"], {
    DATABASE_URL: url,
  });
  runNode(["--experimental-wasm-modules", "--no-warnings", "scripts/migrate.mjs", "apply"], {
    DATABASE_URL: emailUrl,
  });

  const { startFakeStripe } = await import("@/tests/fake-stripe/server");
  const { startLocalSmtp } = await import("@/tests/helpers/local-smtp");
  const scenarios = await import("./scenarios");
  const { killDuringPromotions } = await import("./waitlist-scenario");
  const { killDuringCheckIns } = await import("./check-in-scenario");
  const twoInstances = await import("./two-instances-scenario");
  const { disconnectDb } = await import("@/lib/db");
  const { PrismaClient } = await import("@/lib/generated/prisma/client");
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const emailDb = new PrismaClient({ adapter: new PrismaPg({ connectionString: emailUrl, max: 2 }) });
  const fake = await startFakeStripe({ latencyMs: 30 });
  const smtp = await startLocalSmtp({ failFirst: SMTP_FAIL_FIRST });

  const appEnv: Record<string, string> = {
    DATABASE_URL: url,
    DATA_DIR: dir,
    NEXT_DIST_DIR: ".next-reliability",
    NEXTAUTH_SECRET: "reliability-secret-not-for-production",
    NEXTAUTH_URL: `http://127.0.0.1:${PORT}`,
    SEED_DEMO: "false",
    STRIPE_SECRET_KEY: "sk_test_x",
    NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY: "pk_test_x",
    STRIPE_API_HOST: fake.url,
    STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
    STRIPE_RATE_LIMIT: "1000",
    CHARGE_CONCURRENCY: "16",
    RATE_LIMIT_DISABLED: "true",
    JOBS_ENABLED: "true",
    NODE_ENV: "production",
  };
  // The email scenario's own instance: its own database, and SMTP_URL at the local SMTP server (smtp-server; the
  // main instance has none, so the emails its scenarios cause are stored, as without SMTP).
  const emailEnv = {
    ...appEnv,
    DATABASE_URL: emailUrl,
    SMTP_URL: smtp.url,
    NEXTAUTH_URL: `http://127.0.0.1:${PORT + 1}`,
  };
  // buildHash (start.mjs) includes NEXT_PUBLIC_* of the environment it runs in.
  process.env.NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY = appEnv.NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY;
  say(
    `Postgres, fake Stripe ${fake.url}, SMTP server (smtp-server) ${smtp.url}; starting the app on ${PORT} (builds first if needed)...`,
  );
  const app = await startApp(appEnv, { port: PORT, logDir: dir, readyTimeoutMs: 600_000 });
  say(`app ready after ${((Date.now() - t0) / 1000).toFixed(0)}s`);

  const ctx: import("./scenarios").Ctx = {
    fake,
    smtp,
    appEnv,
    port: PORT,
    logDir: dir,
    webhookSecret: WEBHOOK_SECRET,
    app,
    stopDatabase: () => embedded.pg.stop(),
    startDatabase: () => embedded.pg.start(),
  };
  const results: ScenarioResult[] = [];
  const record = (r: ScenarioResult) => {
    results.push(r);
    console.log(formatLine(r));
  };
  const crashed = (name: string, err: unknown): ScenarioResult => ({
    name,
    figures: {},
    duplicates: 0,
    lost: 0,
    failures: [`crashed: ${(err as Error)?.stack ?? err}`],
    ms: 0,
  });

  let eventId: string | null = null;
  try {
    // Scenario 5 mostly waits for the per-minute sender, so it runs alongside 1, 3 and 4 (not 2:
    // that one stops Postgres).
    const email = want("5")
      ? scenarios
          .emailRetries(ctx, { client: emailDb, env: emailEnv, port: PORT + 1, failFirst: SMTP_FAIL_FIRST })
          .catch((e) => crashed("5 SMTP refusing deliveries", e))
      : null;
    if (want("1"))
      record(await scenarios.killDuringCharging(ctx).catch((e) => crashed("1 kill -9 during charging", e)));
    if (want("3") || want("2")) {
      const s3 = await scenarios.stripeFaults(ctx).catch((e) => crashed("3 Stripe 500/429/timeouts", e));
      if ("campaignId" in s3) eventId = s3.campaignId as string;
      if (want("3")) record(s3);
    }
    if (want("4"))
      record(await scenarios.webhookReplay(ctx).catch((e) => crashed("4 webhooks replayed/reordered", e)));
    if (want("6"))
      record(
        await scenarios.killDuringRecovery(ctx).catch((e) => crashed("6 kill -9 during the retry pass", e)),
      );
    if (want("7"))
      record(await scenarios.killDuringPayouts(ctx).catch((e) => crashed("7 kill -9 during payouts", e)));
    if (want("8"))
      record(await killDuringPromotions(ctx).catch((e) => crashed("8 kill -9 during promotions", e)));
    if (want("11"))
      record(await killDuringCheckIns(ctx).catch((e) => crashed("11 kill -9 during check-ins", e)));
    if (email) record(await email);
    async function twoInstanceScenarios(bouncer: string | null) {
      const via = bouncer ? " via PgBouncer" : "";
      const pairStarted = Date.now();
      const pair = await twoInstances.startPair(ctx, bouncer).catch((e: Error) => e);
      if (pair instanceof Error) {
        if (want("9")) record(crashed(`9 two instances, jobs on both${via}`, pair));
        if (want("10")) record(crashed(`10 two instances, kill -9 B${via}`, pair));
        return;
      }
      say(
        `two instances behind the balancer ${pair.balancer}${via} after ${((Date.now() - pairStarted) / 1000).toFixed(0)}s`,
      );
      try {
        if (want("9"))
          record(
            await twoInstances
              .exactlyOnceOnTwo(ctx, pair, pairStarted)
              .catch((e) => crashed(`9 two instances, jobs on both${via}`, e)),
          );
        if (want("10"))
          record(
            await twoInstances
              .killOneOfTwo(ctx, pair)
              .catch((e) => crashed(`10 two instances, kill -9 B${via}`, e)),
          );
      } finally {
        await pair.close();
      }
    }
    if (want("2")) {
      if (eventId)
        record(await scenarios.databaseOutage(ctx, eventId).catch((e) => crashed("2 Postgres down 5 s", e)));
      else record(crashed("2 Postgres down 5 s", "no event to load (scenario 3 failed)"));
    }
    // Last: these replace the suite's instance by two behind a balancer (TRUST_PROXY=1); then once
    // more with both instances reaching PostgreSQL through PgBouncer in transaction mode, where the
    // machine has it (issue 35).
    if (want("9") || want("10")) {
      await twoInstanceScenarios(null);
      const bouncer = twoInstances.pgBouncerBinary();
      if (bouncer) await twoInstanceScenarios(bouncer);
      else
        say(
          "PgBouncer not found (RELIABILITY_PGBOUNCER, PATH, /usr/sbin): scenarios 9 and 10 ran once, directly",
        );
    }
  } finally {
    await stopApp(ctx.app);
    await disconnectDb().catch(() => {});
    await emailDb.$disconnect().catch(() => {});
    await fake.close();
    await smtp.close();
    await embedded.stop().catch(() => {});
  }

  const failed = results.filter((r) => r.failures.length || r.duplicates || r.lost);
  console.log(
    `\n[reliability] ${results.length - failed.length}/${results.length} scenarios passed in ${((Date.now() - t0) / 1000).toFixed(0)}s`,
  );
  for (const r of [...results].sort((a, b) => a.name.localeCompare(b.name, "en", { numeric: true })))
    console.log(formatLine(r));
  if (failed.length) console.log(`[reliability] app logs: ${path.relative(root, dir)}/app-*.log`);
  process.exit(failed.length ? 1 : 0);
}

main().catch((err) => {
  console.error(`[reliability] ${err?.stack ?? err}`);
  process.exit(1);
});
