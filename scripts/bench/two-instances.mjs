// Issue 35, item 4: two instances from one build behind the round-robin balancer
// (scripts/lib/balancer.mjs), one PostgreSQL. Runs after the one-instance scenarios, with that server
// stopped: two app processes (START_SKIP_BUILD=true, their own PORTs, TRUST_PROXY=1, the same
// DATABASE_URL, jobs enabled as in production). Measures the aggregate throughput of a visitor page
// (/ and the hot event page) and of spread commits against the one-instance rows of the same run, and
// that a commit through instance A is visible to the next visitor on instance B.
import { createBalancer } from "../lib/balancer.mjs";
import { freePort } from "../lib/embedded-db.mjs";
import { COMMIT_VIA, commitOne, spreadCommits } from "./scenarios.mjs";

export const TWO = "two instances";

/** The attendee count a visitor sees on a free event's page (`Attendees` then the number). */
async function attendees(base, id) {
  const html = await (await fetch(`${base}/campaign/${id}`)).text();
  const m = html.match(/Attendees<\/dt><dd[^>]*>(?:<!-- -->)?([\d,]+)/);
  return m ? Number(m[1].replace(/,/g, "")) : null;
}

/** A commit through A, then the next visitor on B: the count moved by exactly one. */
async function crossInstance({ a, b, secret, log }) {
  const id = "bf00000007";
  await attendees(b.base, id); // B renders (and keeps) the current version's copy first
  const before = await attendees(b.base, id);
  const commit = await commitOne({ base: a.base, campaignId: id, secret, log });
  const t0 = performance.now();
  const after = await attendees(b.base, id);
  const ms = Math.round(performance.now() - t0);
  const visible = before !== null && commit.ok && after === before + 1;
  const detail = `event ${id} on B's port: ${before} attendees before, ${after} after one commit through A's port (${commit.ok ? "committed" : `commit failed: ${commit.sample}`}); B answered in ${ms} ms`;
  log(`${TWO}: ${detail} — ${visible ? "visible" : "NOT VISIBLE"}`);
  return {
    scenario: `${TWO}: a commit through A is visible to the next visitor on B`,
    kind: "cross-instance",
    reqPerSec: "—",
    p50: ms,
    p99: "—",
    visible,
    gates: [{ name: `${TWO}: commit through A visible on B`, pass: visible, detail }],
  };
}

export async function twoInstances({ url, startServer, measure, secret, log, q, only }) {
  const lbPort = await freePort();
  const lb = `http://localhost:${lbPort}`;
  // NEXTAUTH_URL is the balancer's address, as behind a real one
  const env = { START_SKIP_BUILD: "true", TRUST_PROXY: "1", NEXTAUTH_URL: lb };
  const a = await startServer(url, env);
  const b = await startServer(url, env);
  const balancer = createBalancer([a.port, b.port]);
  await new Promise((r) => balancer.listen(lbPort, "localhost", r));
  log(`${TWO}: A on ${a.port}, B on ${b.port}, round-robin balancer on ${lbPort}`);
  // the two instances' peaks, summed (the balancer is the bench's own process)
  const both = { peakRss: () => a.peakRss() + b.peakRss() };
  const rows = [];
  const want = (name) => !only || only.test(name) || only.test(TWO);
  try {
    // Each scenario first on A alone (its own port, B idle), then through the balancer to both: the
    // closest same-run comparison on a shared machine, whose load moves within minutes.
    const page = async (name, pathName, oneInstance) => {
      if (!want(name)) return;
      const alone = await measure(`${TWO}: ${name} on A alone`, { url: a.base + pathName }, both);
      const row = await measure(`${TWO}: ${name} (through the balancer)`, { url: lb + pathName }, both);
      rows.push({ ...row, oneInstance, alone: alone.reqPerSec });
    };
    await page("visitor /", "/", "visitor /");
    await page("visitor event page", "/campaign/bc00000001", "visitor event page");
    if (want("commits")) {
      const ctx = { url, secret, server: both, log, q };
      const alone = await spreadCommits.run({ ...ctx, base: a.base });
      const row = await spreadCommits.run({ ...ctx, base: lb });
      rows.push({
        ...row,
        scenario: `${TWO}: commits (distinct signed-in users, ${COMMIT_VIA}, through the balancer)`,
        kind: "commits-two-instances",
        oneInstance: "commits (distinct",
        alone: alone.reqPerSec,
        note: `${TWO}: ${row.note} On A alone just before: ${alone.reqPerSec}/s, p99 ${alone.p99} ms, ${alone.noneLost ? "none lost" : "MISMATCH"}.`,
      });
    }
    rows.push(await crossInstance({ a, b, secret, log }));
    const peak = Math.round(both.peakRss());
    rows.at(-1).peakRssMb = peak;
    log(`${TWO}: peak RSS of the two instances together ${peak} MB`);
  } finally {
    const closed = new Promise((r) => balancer.close(r));
    balancer.closeAllConnections();
    await closed;
    await Promise.all([a.stop(), b.stop()]);
  }
  return rows;
}

/** The one-instance row a two-instance row compares with (same run). */
export function oneInstanceOf(s, scenarios) {
  return s.oneInstance && scenarios.find((x) => x.scenario.startsWith(s.oneInstance));
}
