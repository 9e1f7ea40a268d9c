#!/usr/bin/env node
// node scripts/bench/hot-db.mjs — a diagnosis for the hot-event bench (issue 32), not part of `npm run bench`:
// how fast PostgreSQL alone takes one-statement commits (lock the event row, insert the pledge, move the
// counters, queue the email: the shape of the one-statement commit) on ONE event vs spread over 200, from 10
// connections with no app in between; then the same with synchronous_commit off (diagnosis only: the row
// lock is held through the commit's WAL flush) and with 10 commits per statement on one connection (a
// group commit). Its own embedded database under bench/.work/.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import pg from "pg";
import { startEmbeddedPostgres } from "../lib/embedded-db.mjs";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");
process.chdir(root);
const workDir = path.join(root, "bench", ".work", `hot-db-${process.pid}`);
fs.mkdirSync(workDir, { recursive: true });
const srv = await startEmbeddedPostgres({ dataDir: path.join(workDir, "pg"), port: 0 });
await (async () => {
  const c = new pg.Client({ connectionString: srv.url() });
  await c.connect();
  await c.query("DROP DATABASE IF EXISTS hot");
  await c.query("CREATE DATABASE hot");
  await c.end();
})();
const url = srv.url("hot");
const mig = spawnSync(
  process.execPath,
  ["--experimental-wasm-modules", "--no-warnings", "scripts/migrate.mjs", "apply"],
  { env: { ...process.env, DATABASE_URL: url }, encoding: "utf8" },
);
if (mig.status) throw new Error(mig.stderr);
const admin = new pg.Client({ connectionString: url });
await admin.connect();
await admin.query(
  `INSERT INTO "User" (id, email, name, "updatedAt") SELECT 'u' || g, 'u' || g || '@x.test', 'U ' || g, now() FROM generate_series(1, 60000) g`,
);
await admin.query(`INSERT INTO "Campaign" (id, title, description, goal, deadline, "updatedAt", "creatorId", "creatorEmail", status, "approvalStatus", "pactType", "ticketPriceCents", "acceptAfterThreshold")
  SELECT 'e' || g, 'Event ' || g, 'A description long enough for the checks on it.', 10000, now() + interval '30 days', now(), 'u1', 'u1@x.test', 'pending', 'approved', 'paction', 0, true FROM generate_series(0, 200) g`);
let next = 1;
const html = "<p>" + "x".repeat(3000) + "</p>";
async function run(label, eventOf, conns, seconds, { syncOff = false, batch = 1 } = {}) {
  const clients = await Promise.all(
    Array.from({ length: conns }, async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      if (syncOff) await c.query("SET synchronous_commit = off");
      return c;
    }),
  );
  let n = 0;
  const end = Date.now() + seconds * 1000;
  const t0 = Date.now();
  await Promise.all(
    clients.map(async (c) => {
      while (Date.now() < end) {
        if (batch > 1) {
          const ids = Array.from({ length: batch }, () => next++);
          const e = eventOf(ids[0]);
          await c.query(
            `WITH c AS (SELECT id FROM "Campaign" WHERE id = $1 FOR UPDATE),
          p AS (INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "createdAt") SELECT 'p' || i, c.id, 'u' || i, 1, 0, 'U', now() FROM c, unnest($2::int[]) i
                ON CONFLICT ("campaignId", "userId") WHERE "withdrawnAt" IS NULL DO NOTHING RETURNING id, amount),
          u AS (UPDATE "Campaign" SET "committedCount" = "committedCount" + (SELECT count(*) FROM p), "pledgeCount" = "pledgeCount" + (SELECT count(*) FROM p), "currentAmount" = "currentAmount" + (SELECT count(*) FROM p)
                WHERE id IN (SELECT id FROM c) AND EXISTS (SELECT 1 FROM p) RETURNING id),
          o AS (INSERT INTO "EmailOutbox" (id, "dedupeKey", "toEmail", subject, text, html, status, attempts, "createdAt") SELECT 'o' || p.id, 'k' || p.id, 'a@x.test', 's', 't', $3, 'pending', 0, now() FROM p RETURNING id)
          SELECT (SELECT count(*) FROM p) AS n, (SELECT count(*) FROM u) AS u, (SELECT count(*) FROM o) AS o`,
            [e, ids, html],
          );
          n += batch;
          continue;
        }
        const i = next++;
        const e = eventOf(i);
        const id = "p" + i;
        await c.query(
          `WITH c AS (SELECT id FROM "Campaign" WHERE id = $1 FOR UPDATE),
        p AS (INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "createdAt") SELECT $2, c.id, $3, 1, 0, 'U', now() FROM c
              ON CONFLICT ("campaignId", "userId") WHERE "withdrawnAt" IS NULL DO NOTHING RETURNING id, amount),
        u AS (UPDATE "Campaign" SET "committedCount" = "committedCount" + 1, "pledgeCount" = "pledgeCount" + 1, "currentAmount" = "currentAmount" + 1
              WHERE id IN (SELECT id FROM c) AND EXISTS (SELECT 1 FROM p) RETURNING id),
        o AS (INSERT INTO "EmailOutbox" (id, "dedupeKey", "toEmail", subject, text, html, status, attempts, "createdAt") SELECT 'o' || $2, 'k' || $2, 'a@x.test', 's', 't', $4, 'pending', 0, now() FROM p RETURNING id)
        SELECT (SELECT id FROM p) AS id, (SELECT count(*) FROM u) AS u, (SELECT count(*) FROM o) AS o`,
          [e, id, "u" + i, html],
        );
        n++;
      }
    }),
  );
  const rate = n / ((Date.now() - t0) / 1000);
  console.log(`${label}: ${conns} connections, ${rate.toFixed(0)} commits/s`);
  await Promise.all(clients.map((c) => c.end()));
  return rate;
}
for (const conns of [10]) {
  const s = await run("spread over 200 events", (i) => "e" + (1 + (i % 200)), conns, 6);
  const h = await run("one event", () => "e0", conns, 6);
  console.log(`  one/spread = ${(h / s).toFixed(2)}`);
  const s2 = await run(
    "spread, synchronous_commit off (diagnosis only)",
    (i) => "e" + (1 + (i % 200)),
    conns,
    6,
    { syncOff: true },
  );
  const h2 = await run("one event, synchronous_commit off (diagnosis only)", () => "e0", conns, 6, {
    syncOff: true,
  });
  console.log(`  one/spread = ${(h2 / s2).toFixed(2)}`);
  const h3 = await run("one event, 10 commits per statement (1 connection)", () => "e0", 1, 6, { batch: 10 });
  console.log(`  batched one/spread = ${(h3 / s).toFixed(2)}`);
  const s4 = await run("spread over 200 events (again)", (i) => "e" + (1 + (i % 200)), conns, 6);
  const h4 = await run("one event (again)", () => "e0", conns, 6);
  console.log(`  one/spread = ${(h4 / s4).toFixed(2)}`);
}
const { rows } = await admin.query(
  `SELECT "pledgeCount", (SELECT count(*) FROM "Pledge" WHERE "campaignId" = 'e0')::int AS rows FROM "Campaign" WHERE id = 'e0'`,
);
console.log("e0 counters vs rows", rows[0]);
await admin.end();
await srv.stop();
fs.rmSync(workDir, { recursive: true, force: true });
