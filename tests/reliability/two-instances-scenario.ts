import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type http from "node:http";
import { db } from "@/lib/db";
import {
  killApp,
  postJson,
  root,
  sleep,
  startApp,
  stopApp,
  type App,
  type ScenarioResult,
} from "@/tests/reliability/harness";
import {
  audit,
  executed,
  intentRequests,
  paidEvent,
  payoutReadyEvents,
  settled,
  type Ctx,
} from "@/tests/reliability/scenarios";

/**
 * 9 and 10. Two instances (issue 35, item 4): two app processes from one build (START_SKIP_BUILD,
 * the harness's reuseBuild), different ports, TRUST_PROXY=1, one PostgreSQL, background jobs on
 * both as in production, and the round-robin balancer of scripts/lib/balancer.mjs in front. Every
 * request of these scenarios goes through the balancer, so consecutive requests alternate between
 * the instances; the charge job, the charge sweeper and the payout sweeper run on whichever
 * instance pg-boss hands them to.
 */
export type Pair = {
  /** set when the instances reach PostgreSQL through PgBouncer (RELIABILITY_PGBOUNCER) */
  via: string;
  a: App;
  b: App;
  bPort: number;
  balancer: string;
  balancerServer: http.Server;
  close: () => Promise<void>;
};

const createBalancer = async () =>
  (
    (await import(path.join(root, "scripts/lib/balancer.mjs"))) as {
      createBalancer: (ports: number[]) => http.Server;
    }
  ).createBalancer;

/**
 * The PgBouncer binary the suite's second pass of the two-instance scenarios goes through (issue 35:
 * "if the registries have PgBouncer, the suite runs once through it"): RELIABILITY_PGBOUNCER, else
 * `pgbouncer` on the PATH or in /usr/sbin (Debian's package; .ci/run installs it). "false" skips.
 */
export function pgBouncerBinary(): string | null {
  const given = process.env.RELIABILITY_PGBOUNCER;
  if (given === "false") return null;
  if (given) return given;
  const dirs = [...(process.env.PATH ?? "").split(path.delimiter), "/usr/sbin", "/usr/local/sbin"];
  for (const d of dirs) {
    const candidate = path.join(d, "pgbouncer");
    try {
      fs.accessSync(candidate, fs.constants.X_OK);
      return candidate;
    } catch {}
  }
  return null;
}

/**
 * The two instances reach PostgreSQL through PgBouncer in transaction mode (the suite's own checks go
 * directly). PgBouncer refuses to run as root: then it runs as the `postgres` or `nobody` user.
 */
async function startPgBouncer(ctx: Ctx, databaseUrl: string, bin: string) {
  const u = new URL(databaseUrl);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "reliability-pgbouncer-"));
  fs.chmodSync(dir, 0o777);
  fs.writeFileSync(
    path.join(dir, "users.txt"),
    `"${decodeURIComponent(u.username)}" "${decodeURIComponent(u.password)}"\n`,
  );
  const port = ctx.port + 4;
  const db = u.pathname.slice(1);
  fs.writeFileSync(
    path.join(dir, "pgbouncer.ini"),
    [
      "[databases]",
      `${db} = host=${u.hostname} port=${u.port} dbname=${db}`,
      "[pgbouncer]",
      "listen_addr = 127.0.0.1",
      `listen_port = ${port}`,
      "auth_type = plain",
      `auth_file = ${dir}/users.txt`,
      "pool_mode = transaction",
      "default_pool_size = 20",
      "max_client_conn = 200",
      `logfile = ${dir}/pgbouncer.log`,
      "unix_socket_dir =",
      "",
    ].join("\n"),
  );
  let ids: { uid: number; gid: number } | object = {};
  if (process.getuid?.() === 0) {
    const line = fs
      .readFileSync("/etc/passwd", "utf8")
      .split("\n")
      .map((l) => l.split(":"))
      .find((f) => f[0] === "postgres" || f[0] === "nobody");
    if (line) ids = { uid: Number(line[2]), gid: Number(line[3]) };
  }
  const child: ChildProcess = spawn(bin, [path.join(dir, "pgbouncer.ini")], { stdio: "ignore", ...ids });
  await sleep(1_000);
  if (child.exitCode !== null) throw new Error(`PgBouncer exited; see ${dir}/pgbouncer.log`);
  u.port = String(port);
  u.hostname = "127.0.0.1";
  return { url: u.toString(), stop: () => child.kill("SIGTERM") };
}

/** Stops the suite's instance, starts A on its port and B beside it, and the balancer in front. */
export async function startPair(ctx: Ctx, pgBouncer: string | null = null): Promise<Pair> {
  await stopApp(ctx.app);
  const bouncer = pgBouncer ? await startPgBouncer(ctx, ctx.appEnv.DATABASE_URL, pgBouncer) : null;
  const env = {
    ...ctx.appEnv,
    TRUST_PROXY: "1",
    // PgBouncer before 1.21 cannot carry a named statement across transactions (README)
    ...(bouncer ? { DATABASE_URL: bouncer.url, DATABASE_PREPARED_STATEMENTS: "false" } : {}),
  };
  const bPort = ctx.port + 2; // ctx.port + 1 is the email scenario's instance
  const [a, b] = await Promise.all([
    startApp(env, { port: ctx.port, logDir: ctx.logDir, reuseBuild: true }),
    startApp(env, { port: bPort, logDir: ctx.logDir, reuseBuild: true }),
  ]);
  ctx.app = a; // the suite's own cleanup stops A; close() stops B and the balancer
  const server = (await createBalancer())([ctx.port, bPort]);
  await new Promise<void>((r) => server.listen(ctx.port + 3, "127.0.0.1", r));
  return {
    via: bouncer ? " via PgBouncer" : "",
    a,
    b,
    bPort,
    balancer: `http://127.0.0.1:${ctx.port + 3}`,
    balancerServer: server,
    close: async () => {
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
      await stopApp(b);
      if (bouncer) {
        await stopApp(a); // before PgBouncer goes, so A's pools do not log errors meanwhile
        bouncer.stop();
      }
    },
  };
}

/** Events past their hold with money to pay out, as scenario 7 makes them (one organizer each). */
const payoutReadyEventsHere = (ctx: Ctx, n: number, price: number) =>
  payoutReadyEvents(ctx, n, price, `${Date.now().toString(36)}two`, {
    title: "Two-instance payout event",
    description: "A paid event whose organizer is paid while two instances run their sweepers.",
  });

const checkAndCharge = (base: string, campaignId: string) =>
  postJson(base, "/api/check-and-charge", { campaignId }).catch((e: Error) => ({
    status: 0,
    json: e.message,
  }));

/** A tipped event's charging must have reached the campaign row: every pledge counted once. */
async function totalsFailure(campaignId: string, n: number, price: number): Promise<string | null> {
  const after = await db.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { status: true, totalCharged: true, totalChargedCents: true },
  });
  return after.status === "charged" &&
    after.totalCharged === n &&
    Number(after.totalChargedCents) === n * price
    ? null
    : `campaign ended ${after.status} with ${after.totalCharged} charged / ${after.totalChargedCents} cents`;
}

/**
 * 9. An event with 600 backers tips while both instances run: four check-and-charge requests through
 * the balancer (two on each instance, all at once) and the charge job charge it concurrently; thirty
 * events past their hold are paid out by the payout sweeper of whichever instance runs it. Every
 * pledge must be charged exactly once at the fake Stripe and recorded once; every event must get
 * exactly one transfer of its net and one payout row.
 */
export async function exactlyOnceOnTwo(ctx: Ctx, pair: Pair, startedAt: number): Promise<ScenarioResult> {
  const t0 = startedAt;
  const failures: string[] = [];
  const N = 600;
  const EVENTS = 30;
  const price = 2500;
  const payouts = await payoutReadyEventsHere(ctx, EVENTS, price);
  const { campaign, pledges } = await paidEvent(ctx, N, { priceCents: price });
  const answers = await Promise.all([0, 1, 2, 3].map(() => checkAndCharge(pair.balancer, campaign.id)));
  const bad = answers.filter((r) => r.status !== 200);
  if (bad.length)
    failures.push(`${bad.length} check-and-charge requests answered ${bad.map((r) => r.status).join(", ")}`);
  if (!(await settled(campaign.id))) failures.push("charging did not finish within 3 minutes");
  const { duplicates: chargeDuplicates, lost: chargeLost } = await audit(ctx.fake, campaign.id, () => true);
  const totals = await totalsFailure(campaign.id, N, price);
  if (totals) failures.push(totals);
  const charges = pledges.reduce((n, p) => n + executed(ctx.fake, p.id).length, 0);
  if (charges !== N) failures.push(`${charges} charges executed for ${N} pledges`);

  // The payout sweeper runs every minute on one of the instances; wait for it (at most 150 s).
  const transfersOf = (id: string) =>
    [...ctx.fake.state.transfers.values()].filter((t) => t.metadata.campaignId === id);
  const done = Date.now() + 150_000;
  while (
    (await db.payout.count({
      where: { campaignId: { in: payouts.ids }, kind: "transfer", status: "succeeded" },
    })) < EVENTS
  ) {
    if (Date.now() > done) {
      failures.push("the payouts did not finish within 150 s");
      break;
    }
    await sleep(500);
  }
  await sleep(2_000); // a second sweep racing the first would show as a second transfer by now
  let payoutDuplicates = 0;
  let payoutLost = 0;
  for (const id of payouts.ids) {
    const sent = transfersOf(id);
    if (sent.length > 1) payoutDuplicates++;
    const rows = await db.payout.findMany({ where: { campaignId: id } });
    const ok =
      sent.length === 1 &&
      sent[0].amount === payouts.net &&
      rows.length === 1 &&
      rows[0].status === "succeeded" &&
      rows[0].providerId === sent[0].id &&
      Number(rows[0].amountCents) === payouts.net;
    if (!ok) payoutLost++;
  }
  const transfers = payouts.ids.reduce((n, id) => n + transfersOf(id).length, 0);
  return {
    name: `9 two instances, jobs on both${pair.via}`,
    figures: {
      instances: 2,
      pledges: N,
      "requests-200": answers.length - bad.length,
      charges,
      replays: intentRequests(ctx.fake, campaign.id).filter((r) => r.replayed).length,
      events: EVENTS,
      transfers,
    },
    duplicates: chargeDuplicates + payoutDuplicates,
    lost: chargeLost + payoutLost,
    failures,
    ms: Date.now() - t0,
  };
}

/**
 * 10. kill -9 of instance B while both charge a 1,000-backer event (one check-and-charge request on
 * each, through the balancer, plus the charge job). B is killed at about a third of the charges;
 * the survivor A finishes what was never claimed (the balancer sends every later request to A, as
 * B refuses connections). The claims B held stay `processing`: once A is quiet, exactly those must
 * be left, and the suite ages them past STALE_CLAIM_MS (as scenario 1 does, standing in for the
 * five minutes) so A's next run re-drives them with their own idempotency keys. Every pledge must
 * end charged exactly once.
 */
export async function killOneOfTwo(ctx: Ctx, pair: Pair): Promise<ScenarioResult> {
  const t0 = Date.now();
  const failures: string[] = [];
  const N = 1000;
  const price = 2500;
  const { campaign, pledges } = await paidEvent(ctx, N, { priceCents: price });
  const ids = pledges.map((p) => p.id);
  const countExecuted = () => ids.reduce((n, id) => n + executed(ctx.fake, id).length, 0);
  const inState = async (s: "none" | "processing") =>
    db.pledge.findMany({ where: { campaignId: campaign.id, chargeStatus: s }, select: { id: true } });

  const first = [checkAndCharge(pair.balancer, campaign.id), checkAndCharge(pair.balancer, campaign.id)];
  const killAt = Math.floor(N * 0.3);
  const deadline = Date.now() + 120_000;
  while (countExecuted() < killAt) {
    if (Date.now() > deadline)
      throw new Error(`charging never reached ${killAt} charges (${countExecuted()})`);
    await sleep(10);
  }
  await killApp(pair.b);
  const chargedAtKill = countExecuted();
  const claimedAtKill = new Set((await inState("processing")).map((p) => p.id));
  const untouchedAtKill = (await inState("none")).length;
  if (chargedAtKill >= N) failures.push("the kill came after the charging finished");
  if (untouchedAtKill === 0) failures.push("the kill left no pledge untouched");
  const firstAnswers = (await Promise.all(first)).map((r) => r.status).join("/");

  // The survivor finishes every pledge nobody claimed: ask again through the balancer (B refuses
  // connections, so A answers) until nothing is untouched and A's own claims have settled.
  let survivorRequests = 0;
  let stable = 0;
  let last = -1;
  const quiet = Date.now() + 120_000;
  while (stable < 4) {
    if (Date.now() > quiet) {
      failures.push("the survivor did not finish the unclaimed pledges within 2 minutes");
      break;
    }
    if ((await inState("none")).length > 0) {
      survivorRequests++;
      const r = await checkAndCharge(pair.balancer, campaign.id);
      if (r.status !== 200) failures.push(`check-and-charge on the survivor answered ${r.status}`);
      stable = 0;
      continue;
    }
    const processing = (await inState("processing")).length;
    stable = processing === last ? stable + 1 : 0;
    last = processing;
    await sleep(500);
  }
  const orphaned = (await inState("processing")).map((p) => p.id);
  const notB = orphaned.filter((id) => !claimedAtKill.has(id));
  if (notB.length) failures.push(`${notB.length} claims left processing that were not held at the kill`);

  // B's claims stand in for ones older than STALE_CLAIM_MS (5 minutes).
  await db.$executeRaw`UPDATE "Pledge" SET "chargeClaimedAt" = now() - interval '10 minutes' WHERE "campaignId" = ${campaign.id} AND "chargeStatus" = 'processing'`;
  const again = await checkAndCharge(pair.balancer, campaign.id);
  if (again.status !== 200) failures.push(`check-and-charge after ageing answered ${again.status}`);
  if (!(await settled(campaign.id))) failures.push("charging did not finish within 3 minutes of the kill");

  const { duplicates, lost } = await audit(ctx.fake, campaign.id, () => true);
  const totals = await totalsFailure(campaign.id, N, price);
  if (totals) failures.push(totals);
  const charges = countExecuted();
  if (charges !== N) failures.push(`${charges} charges executed for ${N} pledges`);
  return {
    name: `10 two instances, kill -9 B${pair.via}`,
    figures: {
      pledges: N,
      charges,
      "charged-before-kill": chargedAtKill,
      "in-flight-at-kill": claimedAtKill.size,
      "orphaned-by-B": orphaned.length,
      "first-requests": firstAnswers,
      "survivor-requests": survivorRequests,
      replays: intentRequests(ctx.fake, campaign.id).filter((r) => r.replayed).length,
    },
    duplicates,
    lost,
    failures,
    ms: Date.now() - t0,
  };
}
