import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { campaignVersion, homeVersion } from "@/lib/cache/visitor-version";
import { createCampaign } from "@/tests/helpers/factories";

// Issue 35: the visitors' version lookups are named (prepared) statements, except behind PgBouncer in
// transaction mode before 1.21, where DATABASE_PREPARED_STATEMENTS=false sends them unnamed.

const names = () => {
  const spy = vi.spyOn(pg.Pool.prototype, "query");
  return {
    seen: () => spy.mock.calls.map((c) => (c[0] as { name?: string }).name ?? null),
  };
};

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.DATABASE_PREPARED_STATEMENTS;
});

describe("the version lookups' statements", () => {
  it("are named by default", async () => {
    const c = await createCampaign();
    const spy = names();
    expect(await homeVersion()).toBeTruthy();
    expect(await campaignVersion(c.id)).toBeTruthy();
    expect(spy.seen()).toEqual(["pn_home_version", "pn_campaign_version_3"]);
  });

  it("are unnamed with DATABASE_PREPARED_STATEMENTS=false, and answer the same", async () => {
    const c = await createCampaign();
    const before = await campaignVersion(c.id);
    process.env.DATABASE_PREPARED_STATEMENTS = "false";
    const spy = names();
    expect(await homeVersion()).toBeTruthy();
    expect(await campaignVersion(c.id)).toBe(before);
    expect(spy.seen()).toEqual([null, null]);
  });
});

// Issue 35 item 3: the commit path's raw statements (lib/db rawQuery: the viewer, the commit's read
// and write) go to the pool Prisma shares as named statements, named by their text; inside a
// transaction they stay Prisma's.
describe("the commit path's statements", () => {
  it("are named by a hash of their text, answer as Prisma's raw query does, and are unnamed with DATABASE_PREPARED_STATEMENTS=false", async () => {
    const { db, Prisma, queryOn, rawQuery } = await import("@/lib/db");
    const { readForCommit } = await import("@/lib/pledges/decide");
    const c = await createCampaign({ goal: 7 });
    const viaPrisma = await db.$transaction((tx) => readForCommit(tx, c.id, "nobody"));
    const spy = names();
    const row = await readForCommit(db, c.id, "nobody");
    expect(row).toEqual(viaPrisma);
    expect(row).toMatchObject({ id: c.id, goal: 7, alreadyCommitted: false, deadline: expect.any(Date) });
    const sql = (id: string) => Prisma.sql`SELECT id, goal FROM "Campaign" WHERE id = ${id}`;
    expect(await rawQuery(sql(c.id))).toEqual([{ id: c.id, goal: 7 }]);
    expect(await queryOn(db)`SELECT id, goal FROM "Campaign" WHERE id = ${c.id}`).toEqual([
      { id: c.id, goal: 7 },
    ]);
    const [read, first, again] = spy.seen();
    expect(read).toMatch(/^pn_[\w-]{20}$/);
    expect(first).toMatch(/^pn_[\w-]{20}$/);
    expect(again).toBe(first); // the same text, the same statement
    expect(first).not.toBe(read);
    process.env.DATABASE_PREPARED_STATEMENTS = "false";
    expect(await readForCommit(db, c.id, "nobody")).toEqual(viaPrisma);
    expect(spy.seen().slice(3)).toEqual([null]);
  });
});
