// Scenarios that need domain mechanisms (commits, charging); each returns a results row.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { encode } from "next-auth/jwt";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
const USERS = 20000; // bu00000001..bu00020000 in seed.sql
const FREE_EVENTS = 200; // bf00000001..bf00000200 in seed.sql
const pad = (n) => String(n).padStart(8, "0");

/**
 * The server action id of commitToCampaignAction in the running build, read from the build's
 * server-reference manifest (the id the browser's client reference carries in `Next-Action`).
 */
export function commitActionId(distDir = process.env.NEXT_DIST_DIR || ".next") {
  const file = path.join(root, distDir, "server", "server-reference-manifest.json");
  const manifest = JSON.parse(fs.readFileSync(file, "utf8"));
  const hit = Object.entries(manifest.node ?? {}).find(
    ([, v]) =>
      v.exportedName === "commitToCampaignAction" && String(v.filename ?? "").endsWith("commit-action.ts"),
  );
  if (!hit) throw new Error(`commitToCampaignAction not found in ${file}`);
  return hit[0];
}

/** The Next-Router-State-Tree the browser sends from /campaign/{id} (page segment, no modals). */
export function routerStateTree(campaignId) {
  const tree = [
    "",
    {
      children: [
        "campaign",
        {
          children: [
            ["campaignId", campaignId, "d"],
            { children: ["(event)", { children: ["__PAGE__", {}] }] },
          ],
        },
      ],
    },
    null,
    null,
    true,
  ];
  return encodeURIComponent(JSON.stringify(tree));
}

/** An action response is a Flight stream; its result row is `1:{"ok":...}`. */
export function actionOutcome(body) {
  if (/"ok":true/.test(body)) return "ok";
  if (/"ok":false/.test(body)) return "refused";
  return "unknown";
}

const pct = (sorted, p) =>
  sorted.length ? sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] : 0;

/**
 * Commits: request i is user bu{i} committing to free event bf{i mod 200} through the server
 * action, exactly as the commit button does (POST to the event page with Next-Action, the
 * arguments as a JSON array, the router state tree). Each request is a different user with its own
 * NextAuth session cookie. "None lost": every response was a success and the number of pledges on
 * the free events equals the number of successful responses.
 */
/**
 * Issue 21: the same, with every other commitment carrying a personal threshold ("only count me if
 * at least N are in", N from 50 to 99: these events have fewer, so they wait). It runs right after
 * the plain one, with the users after it, on the same events — which from then on recount their
 * members on every commit. Its throughput is reported beside the plain one's (target: within 20%).
 */
const shared = { next: 1, ok: 0, cookies: null, actionId: null, plainPerSec: null };
const makeCommits = ({ conditional }) => ({
  name: conditional ? "commits, half conditional" : "commits (distinct users, server action)",
  async run({ base, url, secret, server, log, q }) {
    const cannonConnections = Number(process.env.BENCH_CONNECTIONS || 50);
    const cannonDuration = Number(process.env.BENCH_DURATION || 10);
    const actionId = (shared.actionId ??= commitActionId());
    const t0 = Date.now();
    if (!shared.cookies) {
      shared.cookies = new Array(USERS + 1);
      for (let i = 1; i <= USERS; i++) {
        shared.cookies[i] =
          `next-auth.session-token=${await encode({ token: { sub: `bu${pad(i)}`, email: `bench${i}@bench.test`, name: `Bench User ${i}` }, secret })}`;
      }
      log(
        `commits: minted ${USERS} session cookies in ${((Date.now() - t0) / 1000).toFixed(1)} s; action ${actionId}`,
      );
    }
    const cookies = shared.cookies;

    // A closed loop of CONNECTIONS clients (like autocannon's), but every request in flight when
    // the time is up is awaited and counted, so "none lost" compares complete numbers.
    const tally = { ok: 0, refused: 0, unknown: 0, non200: 0, errors: 0, exhausted: false, samples: [] };
    const commitOnce = async (latencies) => {
      if (shared.next > USERS) {
        tally.exhausted = true;
        return false;
      }
      const i = shared.next++;
      const minPeople = conditional && i % 2 === 0 ? 50 + (i % 50) : undefined;
      const campaignId = `bf${pad(((i - 1) % FREE_EVENTS) + 1)}`;
      const t = performance.now();
      try {
        const res = await fetch(`${base}/campaign/${campaignId}`, {
          method: "POST",
          headers: {
            cookie: cookies[i],
            "next-action": actionId,
            "next-router-state-tree": routerStateTree(campaignId),
            accept: "text/x-component",
            "content-type": "text/plain;charset=UTF-8",
            origin: base,
          },
          body: JSON.stringify([minPeople ? { campaignId, minPeople } : { campaignId }]),
        });
        const body = await res.text();
        latencies.push(performance.now() - t);
        const outcome = res.status === 200 ? actionOutcome(body) : "unknown";
        if (res.status !== 200) tally.non200++;
        tally[outcome]++;
        if (outcome !== "ok" && tally.samples.length < 3)
          tally.samples.push(`${res.status} ${body.slice(0, 300)}`);
      } catch (err) {
        tally.errors++;
        if (tally.samples.length < 3) tally.samples.push(String(err));
      }
      return true;
    };
    const loop = async (connections, seconds) => {
      const latencies = [];
      const end = performance.now() + seconds * 1000;
      const started = performance.now();
      await Promise.all(
        Array.from({ length: connections }, async () => {
          while (performance.now() < end && (await commitOnce(latencies)));
        }),
      );
      return { latencies: latencies.sort((a, b) => a - b), seconds: (performance.now() - started) / 1000 };
    };
    const before = server.peakRss();
    await loop(10, 2); // warm-up (its commits count for "none lost" too)
    const warm = tally.ok;
    const run = await loop(cannonConnections, cannonDuration);
    const measuredOk = tally.ok - warm;
    const responses = tally.ok + tally.refused + tally.unknown;
    const { rows } = await q(url, `SELECT count(*)::int AS n FROM "Pledge" WHERE "campaignId" LIKE 'bf%'`);
    const pledges = rows[0].n;
    shared.ok += tally.ok;
    const noneLost =
      pledges === shared.ok && tally.ok === responses && !tally.exhausted && tally.errors === 0;
    if (tally.samples.length) log(`commits: non-success responses, e.g.\n  ${tally.samples.join("\n  ")}`);
    const perSec = Math.round(measuredOk / run.seconds);
    if (!conditional) shared.plainPerSec = perSec;
    const share = conditional && shared.plainPerSec ? Math.round((perSec / shared.plainPerSec) * 100) : null;
    const row = {
      scenario: conditional
        ? "commits, every other one with a personal threshold (server action)"
        : "commits (distinct signed-in users, server action)",
      kind: conditional ? "commits-conditional" : "commits",
      reqPerSec: Math.round(measuredOk / run.seconds),
      p50: Math.round(pct(run.latencies, 50)),
      p99: Math.round(pct(run.latencies, 99)),
      non2xx: tally.non200,
      errors: tally.errors,
      total: run.latencies.length,
      peakRssMb: Math.round(Math.max(before, server.peakRss())),
      successes: tally.ok,
      refused: tally.refused,
      unreadable: tally.unknown,
      pledgesInDb: pledges,
      noneLost,
      note: conditional
        ? `Commits with every other one conditional: ${perSec}/s, ${share}% of the plain commits' ${shared.plainPerSec}/s in the same run (target ≥ 80%); ${tally.ok} successful of ${responses}, ${pledges} pledges on the free events in all — ${noneLost ? "none lost" : "MISMATCH"}.`
        : `Commits: ${tally.ok} successful responses of ${responses} (warm-up included), ${pledges} pledges in the database on the free events — ${noneLost ? "none lost" : "MISMATCH"}. Target ≥ 200 commits/s, p99 ≤ 250 ms.`,
    };
    log(
      `commits${conditional ? " (half conditional)" : ""}: ${row.reqPerSec} commits/s${share === null ? "" : ` (${share}% of plain)`}, p50 ${row.p50} ms, p99 ${row.p99} ms, ok ${tally.ok}/${responses}, pledges ${pledges}, none lost: ${noneLost}`,
    );
    return row;
  },
});
const commits = makeCommits({ conditional: false });
const conditionalCommits = makeCommits({ conditional: true });

/**
 * Charging: 2,000 pledges through the stripe gateway against the fake Stripe server (50 ms per
 * call), CHARGE_CONCURRENCY=8, STRIPE_RATE_LIMIT=100, in a child process running runCharging.
 */
export function runChargeChild({
  url,
  pledges = 2000,
  latencyMs = 50,
  concurrency = 8,
  rateLimit = 100,
  secret,
}) {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        path.join(root, "scripts/bench/charge-child.mts"),
        String(pledges),
        String(latencyMs),
      ],
      {
        cwd: root,
        env: {
          ...process.env,
          DATABASE_URL: url,
          NEXTAUTH_SECRET: secret,
          STRIPE_SECRET_KEY: "sk_test_bench",
          NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY: "pk_test_bench",
          CHARGE_CONCURRENCY: String(concurrency),
          STRIPE_RATE_LIMIT: String(rateLimit),
          JOBS_ENABLED: "false",
          EMAIL_TRANSPORT: process.env.EMAIL_TRANSPORT || "log",
        },
        stdio: ["ignore", "pipe", "pipe"],
      },
    );
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    child.on("error", reject);
    child.on("exit", (code) => {
      const m = out.match(/BENCH_RESULT (\{.*\})/);
      if (code === 0 && m) resolve(JSON.parse(m[1]));
      else reject(new Error(`charging child exited ${code}:\n${out.slice(-3000)}`));
    });
  });
}

/**
 * A database of its own for the charging run, on the bench cluster: the bench server's charge
 * sweeper (demo gateway, no Stripe keys) would otherwise pick the funded event up too and fail the
 * pledges it claims with payment_method_unavailable.
 */
async function chargingDatabase(url, q) {
  const target = new URL(url);
  target.pathname = "/pactnexus_bench_charging";
  await q(url, `DROP DATABASE IF EXISTS pactnexus_bench_charging`);
  await q(url, `CREATE DATABASE pactnexus_bench_charging`);
  const mig = spawnSync(
    process.execPath,
    ["--experimental-wasm-modules", "--no-warnings", "scripts/migrate.mjs", "apply"],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: target.toString() },
      encoding: "utf8",
    },
  );
  if (mig.status !== 0) throw new Error(`charging database: migrations failed: ${mig.stderr}`);
  return target.toString();
}

const charging = {
  name: "charging",
  async run({ url, secret, log, q }) {
    const concurrency = 8;
    const latencyMs = 50;
    const rateLimit = 100;
    const chargeUrl = await chargingDatabase(url, q);
    const r = await runChargeChild({
      url: chargeUrl,
      secret,
      pledges: 2000,
      latencyMs,
      concurrency,
      rateLimit,
    });
    const ceiling = Math.min((concurrency * 1000) / latencyMs, rateLimit);
    const perSec = r.succeededInDb / (r.wallMs / 1000);
    const ofCeiling = Math.round((perSec / ceiling) * 100);
    const ok = r.duplicates === 0 && r.succeededInDb === r.pledges && r.maxInWindow <= rateLimit;
    const row = {
      scenario: `charging (2,000 pledges, stripe gateway, fake Stripe ${latencyMs} ms/call, concurrency ${concurrency}, limit ${rateLimit}/s)`,
      kind: "charging",
      reqPerSec: Math.round(perSec * 10) / 10,
      p50: "—",
      p99: "—",
      ofCeiling,
      ...r,
      note:
        `Charging: ${r.succeededInDb} of ${r.pledges} pledges charged (${r.stripeCalls} Stripe calls) in ${(r.wallMs / 1000).toFixed(1)} s = ${perSec.toFixed(1)} charges/s, ` +
        `${ofCeiling}% of the ceiling min(${concurrency} ÷ ${latencyMs} ms = ${(concurrency * 1000) / latencyMs}/s, ${rateLimit}/s) = ${ceiling}/s (target ≥ 90%); ` +
        `most calls in any 1-second window at the fake: ${r.maxInWindow} (limit ${rateLimit}); duplicates: ${r.duplicates}; ` +
        `succeeded in the database: ${r.succeededInDb}/${r.pledges}${r.notCharged ? ` (not charged: ${r.notCharged})` : ""}; event status: ${r.campaignStatus}${ok ? "" : " — CHECK FAILED"}.`,
    };
    log(row.note);
    return row;
  },
};

export const scenarios = [commits, conditionalCommits, charging];

/**
 * Lighthouse (npm `lighthouse`, default mobile profile with simulated throttling) with the system
 * Chromium, as a visitor, for each path: scores 0-100 for performance, accessibility and best
 * practices. Returns null for a page Lighthouse could not measure (the reason is logged).
 */
export async function lighthouseScores(base, paths, log) {
  const chrome = process.env.CHROME_PATH || "/usr/bin/chromium";
  if (!fs.existsSync(chrome)) {
    log(`lighthouse: no Chromium at ${chrome} (set CHROME_PATH); skipped`);
    return null;
  }
  const bin = path.join(root, "node_modules", ".bin", "lighthouse");
  const out = {};
  for (const p of paths) {
    const file = path.join(
      root,
      "bench",
      ".work",
      `lighthouse-${process.pid}-${Object.keys(out).length}.json`,
    );
    const code = await new Promise((resolve) => {
      const child = spawn(
        bin,
        [
          base + p,
          "--quiet",
          "--output=json",
          `--output-path=${file}`,
          "--only-categories=performance,accessibility,best-practices",
          "--chrome-flags=--headless=new --no-sandbox --disable-gpu --disable-dev-shm-usage --no-first-run --disable-background-networking --disable-component-update --disable-sync",
        ],
        { cwd: root, env: { ...process.env, CHROME_PATH: chrome }, stdio: ["ignore", "ignore", "pipe"] },
      );
      let err = "";
      child.stderr.on("data", (d) => (err += d));
      child.on("error", (e) => {
        err += String(e);
        resolve(1);
      });
      child.on("exit", (c) => {
        if (c !== 0) log(`lighthouse ${p}: exit ${c} ${err.slice(-500)}`);
        resolve(c);
      });
    });
    if (code !== 0 || !fs.existsSync(file)) {
      out[p] = null;
      continue;
    }
    const report = JSON.parse(fs.readFileSync(file, "utf8"));
    fs.rmSync(file, { force: true });
    const score = (id) =>
      report.categories?.[id]?.score == null ? null : Math.round(report.categories[id].score * 100);
    out[p] = {
      performance: score("performance"),
      accessibility: score("accessibility"),
      bestPractices: score("best-practices"),
    };
    const failing = Object.values(report.audits ?? {})
      .filter(
        (a) =>
          a.score !== null &&
          a.score < 1 &&
          ["binary", "numeric"].includes(a.scoreDisplayMode) &&
          a.score < 0.9,
      )
      .map((a) => a.id)
      .slice(0, 12);
    out[p].below90 = failing;
    const consoleErrors = (report.audits?.["errors-in-console"]?.details?.items ?? []).map(
      (i) => `${i.source}: ${i.url ? `${i.url} ` : ""}${String(i.description).slice(0, 160)}`,
    );
    if (consoleErrors.length) out[p].consoleErrors = consoleErrors.slice(0, 5);
    log(
      `lighthouse ${p}: performance ${out[p].performance}, accessibility ${out[p].accessibility}, best practices ${out[p].bestPractices}; audits below 0.9: ${failing.join(", ") || "none"}${consoleErrors.length ? `; console: ${consoleErrors.slice(0, 3).join(" | ")}` : ""}`,
    );
  }
  return out;
}
