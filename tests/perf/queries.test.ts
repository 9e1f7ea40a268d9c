import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/access/viewer";
import { getAdminDashboard } from "@/lib/campaigns/admin";
import { getCampaignForViewer, listCampaignsByCreator, listHomeCampaigns } from "@/lib/campaigns/queries";
import { EVENT_COMMITMENTS_LIMIT, getCommitPanel, listEventCommitments } from "@/lib/pledges/queries";
import { COMMENTS_SHOWN, getCommentsView } from "@/lib/comments/queries";
import { getUpdatesView } from "@/lib/updates/queries";
import type { HomeFilter } from "@/lib/campaigns/filters";

/**
 * Issue 8 item 3: every list query the pages use is served by an index, and a page render costs a
 * fixed number of queries whatever the number of rows (no N+1).
 *
 * Every statement Prisma sends goes through pg's Client#query (the @prisma/adapter-pg driver);
 * the test records them while a page's data functions run, then asks Postgres for the plan of each
 * recorded SELECT with its own parameters (EXPLAIN (FORMAT JSON)) on a data set large enough that
 * the planner prefers an index wherever one fits: 10,000 events, 12,000 pledges, 6,500 comments.
 */

type Recorded = { text: string; values: unknown[] };
const recorded: Recorded[] = [];
let recording = false;
const originalQuery = pg.Client.prototype.query;

function install() {
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  (pg.Client.prototype as any).query = function (this: pg.Client, config: unknown, ...rest: unknown[]) {
    if (recording) {
      if (typeof config === "string") recorded.push({ text: config, values: [] });
      else if (config && typeof config === "object" && "text" in config) {
        const c = config as { text: string; values?: unknown[] };
        recorded.push({ text: c.text, values: c.values ?? [] });
      }
    }
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    return (originalQuery as any).call(this, config, ...rest);
  };
}

/** Runs `fn` and returns every statement it sent to Postgres. */
async function record(fn: () => Promise<unknown>): Promise<Recorded[]> {
  recorded.length = 0;
  recording = true;
  try {
    await fn();
  } finally {
    recording = false;
  }
  return recorded.splice(0);
}

const BIG_TABLES = new Set(["User", "Campaign", "Pledge", "Comment", "CampaignUpdate"]);

type PlanNode = { "Node Type": string; "Relation Name"?: string; Plans?: PlanNode[] };
function seqScans(node: PlanNode, out: string[] = []): string[] {
  if (node["Node Type"] === "Seq Scan" && node["Relation Name"] && BIG_TABLES.has(node["Relation Name"]))
    out.push(node["Relation Name"]);
  for (const child of node.Plans ?? []) seqScans(child, out);
  return out;
}

let explainClient: pg.Client;

/** Seq Scans on the big tables in the plans of the SELECTs `fn` sends, as readable lines. */
async function unindexed(label: string, fn: () => Promise<unknown>): Promise<string[]> {
  const statements = (await record(fn)).filter((s) => /^\s*SELECT/i.test(s.text));
  expect(statements.length, `${label} sent no SELECT`).toBeGreaterThan(0);
  const problems: string[] = [];
  for (const s of statements) {
    const res = await explainClient.query(`EXPLAIN (FORMAT JSON) ${s.text}`, s.values);
    const plan = (res.rows[0]["QUERY PLAN"] as { Plan: PlanNode }[])[0].Plan;
    const tables = seqScans(plan);
    if (!tables.length) continue;
    // A count over most of a table (the home grid's "N events" total, the admin counts per state)
    // reads most of its rows whatever the plan: a sequential read is the cheapest way, not a
    // missing index. Only such counts are exempt; a count of a small part of a table is not.
    if (
      /^\s*SELECT COUNT\(\*\)/i.test(s.text) &&
      tables.length === 1 &&
      (await coverage(s, tables[0])) >= 0.25
    )
      continue;
    for (const table of tables) problems.push(`${label}: Seq Scan on "${table}" in ${s.text.slice(0, 200)}`);
  }
  return problems;
}

/** The share of `table`'s rows a COUNT statement counts (all its groups together). */
async function coverage(s: Recorded, table: string): Promise<number> {
  const counted = (
    await explainClient.query({ text: s.text, values: s.values, rowMode: "array" })
  ).rows.reduce((sum, row) => sum + Number(row[0]), 0);
  const all = Number((await explainClient.query(`SELECT count(*) AS n FROM "${table}"`)).rows[0].n);
  return all ? counted / all : 0;
}

const HOT = "pc00000001"; // 2,000 pledges, 500 comments, 60 updates
const SMALL = "pc00000002"; // 10 pledges, 3 comments, no updates
const user = (n: number): Viewer => ({
  id: `pu${String(n).padStart(8, "0")}`,
  email: `perf${n}@perf.test`,
  name: `Perf User ${n}`,
  isAdmin: false,
});
const admin: Viewer = { ...user(2999), isAdmin: true };

beforeAll(async () => {
  explainClient = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await explainClient.connect();
  await explainClient.query(`
    INSERT INTO "User" (id, email, name, "updatedAt")
    SELECT 'pu' || lpad(g::text, 8, '0'), 'perf' || g || '@perf.test', 'Perf User ' || g, now() FROM generate_series(1, 3000) g;
    INSERT INTO "Campaign" (id, title, description, goal, deadline, "createdAt", "updatedAt", "creatorId", "creatorEmail",
      status, "approvalStatus", "pactType", "ticketPriceCents", "attendeesAnonymous", "identityRevelationType")
    SELECT 'pc' || lpad(g::text, 8, '0'), 'Perf event ' || g, 'A description for perf event ' || g,
      50, now() + ((g % 60) - 10) * interval '1 day', now() - g * interval '1 minute', now(),
      'pu' || lpad(((g % 300) + 1)::text, 8, '0'), 'perf' || ((g % 300) + 1) || '@perf.test',
      (CASE WHEN g % 7 = 0 THEN 'funded' ELSE 'pending' END)::"CampaignStatus",
      (CASE WHEN g % 10 = 0 THEN 'pending' WHEN g % 10 = 1 AND g > 1 THEN 'rejected' ELSE 'approved' END)::"ApprovalStatus",
      (CASE WHEN g % 20 = 0 THEN 'crowdfund' ELSE 'paction' END)::"PactType",
      CASE WHEN g % 2 = 0 THEN 0 ELSE 1500 END, g % 3 = 0, 'never'
    FROM generate_series(1, 10000) g;
    INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "createdAt")
    SELECT 'pp1_' || u, '${HOT}', 'pu' || lpad(u::text, 8, '0'), 1, 1500, 'Perf User ' || u, now() - u * interval '1 second'
    FROM generate_series(1, 2000) u;
    INSERT INTO "Pledge" (id, "campaignId", "userId", amount, "amountCents", contributor, "createdAt")
    SELECT 'pp' || c || '_' || j, 'pc' || lpad(c::text, 8, '0'), 'pu' || lpad((((c * 37 + j) % 3000) + 1)::text, 8, '0'), 1, 0,
      'Perf User ' || (((c * 37 + j) % 3000) + 1), now() - (c * 10 + j) * interval '1 second'
    FROM generate_series(2, 1001) c, generate_series(0, 9) j;
    INSERT INTO "Comment" (id, "campaignId", "authorId", text, "createdAt")
    SELECT 'pk1_' || k, '${HOT}', 'pu' || lpad(((k % 400) + 1)::text, 8, '0'), 'Perf comment ' || k, now() - k * interval '1 second'
    FROM generate_series(1, 500) k;
    INSERT INTO "Comment" (id, "campaignId", "authorId", text, "createdAt")
    SELECT 'pk' || c || '_' || k, 'pc' || lpad(c::text, 8, '0'), 'pu' || lpad((((c * 13 + k) % 3000) + 1)::text, 8, '0'),
      'Perf comment ' || k, now() - (c * 3 + k) * interval '1 second'
    FROM generate_series(2, 2001) c, generate_series(1, 3) k;
    INSERT INTO "CampaignUpdate" (id, "campaignId", "authorId", text, "createdAt")
    SELECT 'pu_upd_' || g, 'pc' || lpad(((g % 100) + 1)::text, 8, '0'), 'pu' || lpad((((g % 100) % 300) + 2)::text, 8, '0'),
      'Perf update ' || g, now() - g * interval '1 hour'
    FROM generate_series(1, 3000) g;
    UPDATE "Campaign" c SET "pledgeCount" = s.n, "committedCount" = s.n
    FROM (SELECT "campaignId", count(*)::int AS n FROM "Pledge" GROUP BY "campaignId") s WHERE s."campaignId" = c.id;
    ANALYZE;
  `);
  install();
}, 120_000);

afterAll(async () => {
  pg.Client.prototype.query = originalQuery;
  await explainClient?.end();
});

describe("every list query the pages use is served by an index", () => {
  it("home grid: each filter, first and deep pages, visitor and admin", async () => {
    const problems: string[] = [];
    for (const filter of ["all", "active", "funded", "ending"] as HomeFilter[]) {
      for (const page of [1, 40]) {
        for (const isAdmin of [false, true]) {
          problems.push(
            ...(await unindexed(`home ${filter} page ${page}${isAdmin ? " (admin)" : ""}`, () =>
              listHomeCampaigns({ filter, page, isAdmin }),
            )),
          );
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("profile, event page (campaign, commit panel, commitments, comments, updates) and admin dashboard", async () => {
    const viewer = user(5);
    const problems = [
      ...(await unindexed("profile pacts", () => listCampaignsByCreator(user(1).id))),
      ...(await unindexed("event campaign", () => getCampaignForViewer(HOT, viewer))),
      ...(await unindexed("commit panel", () => getCommitPanel(HOT, viewer))),
      ...(await unindexed("event commitments", () => listEventCommitments(HOT, viewer))),
      ...(await unindexed("event comments", () => getCommentsView(HOT, viewer))),
      ...(await unindexed("event updates", () => getUpdatesView(HOT, viewer))),
      ...(await unindexed("admin dashboard", () => getAdminDashboard())),
    ];
    expect(problems).toEqual([]);
  });

  it("the check sees a Seq Scan when a query has no usable index", async () => {
    // Guards the test itself: a list or a small count on an unindexed column must be reported.
    const problems = await unindexed("unindexed title search", async () => {
      await db.campaign.findMany({ where: { title: "Perf event 17" }, take: 5 });
      await db.campaign.count({ where: { title: { startsWith: "Perf event 17" } } });
    });
    expect(problems).toEqual([
      expect.stringContaining(`Seq Scan on "Campaign"`),
      expect.stringContaining(`Seq Scan on "Campaign"`),
    ]);
  });
});

describe("queries per page render do not grow with the rows shown (no N+1)", () => {
  const eventPage = (id: string, viewer: Viewer | null) => async () => {
    await getCampaignForViewer(id, viewer);
    await getCommitPanel(id, viewer);
    await listEventCommitments(id, viewer);
    await getCommentsView(id, viewer);
    await getUpdatesView(id, viewer);
  };

  it("home: a full page of 24 events costs what a page of 2 costs", async () => {
    const full = await record(() => listHomeCampaigns({ filter: "all" }));
    const few = await record(() => listHomeCampaigns({ filter: "all", page: 10_000 }));
    const result = await listHomeCampaigns({ filter: "all" });
    expect(result.campaigns).toHaveLength(24);
    expect(full.length).toBe(2);
    expect(few.length).toBe(full.length);
  });

  it("event page: a full page of commitments and comments costs the same statements as 10 and 3", async () => {
    const { items } = await listEventCommitments(HOT, null);
    expect(items).toHaveLength(EVENT_COMMITMENTS_LIMIT);
    expect((await getCommentsView(HOT, null))?.comments).toHaveLength(COMMENTS_SHOWN);
    // the "Show more" pages cost what the first costs
    expect(await record(() => listEventCommitments(HOT, null, { offset: 40 }))).toHaveLength(
      (await record(() => listEventCommitments(HOT, null))).length,
    );
    expect(await record(() => getCommentsView(HOT, null, new Date(), { offset: 40 }))).toHaveLength(
      (await record(() => getCommentsView(HOT, null))).length,
    );
    for (const viewer of [null, user(5), admin]) {
      const hot = await record(eventPage(HOT, viewer));
      const small = await record(eventPage(SMALL, viewer));
      // Same statements, one relation load per list (an IN list of any length), none per row.
      const shape = (rows: Recorded[]) => rows.map((q) => q.text.replace(/\$\d+(,\$\d+)*/g, "$n"));
      expect(shape(small)).toEqual(shape(hot));
      // Each section reads the campaign (+ has-committed for a signed-in viewer) — in a page render
      // React's cache() makes those one read each, outside a render (here) they repeat —, the
      // commitments page and its count in one statement, the comments page with its count, commenter
      // numbers, updates: at most 12 round trips, none per row.
      expect(hot.length).toBeLessThanOrEqual(viewer ? 12 : 9);
    }
  });

  it("profile and admin dashboard: a fixed number of queries", async () => {
    const many = await record(() => listCampaignsByCreator(user(1).id)); // 33 events
    const none = await record(() => listCampaignsByCreator(user(2998).id)); // 0 events
    expect((await listCampaignsByCreator(user(1).id)).length).toBe(33);
    expect(await listCampaignsByCreator(user(2998).id)).toEqual([]);
    expect(many.length).toBe(1);
    expect(none.length).toBe(1);
    const dashboard = await record(() => getAdminDashboard());
    expect((await getAdminDashboard()).sections.approved.rows).toHaveLength(50);
    // totals, test events (count and titles), three sections, and the collected sums of the rows shown
    expect(dashboard.length).toBe(7);
  });
});
