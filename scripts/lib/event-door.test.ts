import { describe, expect, it } from "vitest";
import { doorProblems, topKeys, triggerProblems } from "./event-door.mjs";

type Problem = { line: number; what: string };
const check = (file: string, text: string) => doorProblems(file, text) as Problem[];

describe("the door to an event (check:structure rule 7)", () => {
  it("finds the Campaign row lock outside lib/events, in its old shapes, and not a pledge's lock or a comment", () => {
    expect(
      check("lib/a/service.ts", 'await tx.$queryRaw`SELECT id FROM "Campaign" WHERE id = ${id} FOR UPDATE`;'),
    ).toEqual([{ line: 1, what: 'locks the "Campaign" row (FOR UPDATE)' }]);
    // the lock in a nested fragment, after subqueries on other tables (the old readForCommit)
    const nested = [
      "const rows = await client.$queryRaw`",
      '  SELECT c.id, EXISTS (SELECT 1 FROM "Pledge" p WHERE p."campaignId" = c.id) AS x',
      '  FROM "Campaign" c WHERE c.id = ${campaignId} ${lock ? Prisma.sql`FOR UPDATE` : Prisma.empty}`;',
    ].join("\n");
    expect(check("lib/pledges/decide.ts", nested).map((p) => p.line)).toEqual([3]);
    expect(
      check(
        "lib/b/service.ts",
        'tx.$queryRaw`SELECT "id" FROM "Pledge" WHERE "campaignId" = ${id} FOR UPDATE`',
      ),
    ).toEqual([]);
    expect(
      check("lib/b/service.ts", "/**\n * the campaign row is locked FOR UPDATE first\n */\nconst x = 1;"),
    ).toEqual([]);
    expect(check("lib/b/service.ts", '// FROM "Campaign" ... FOR UPDATE\nconst x = 1;')).toEqual([]);
    // the door itself may
    expect(check("lib/events/lock.ts", 'SELECT id FROM "Campaign" WHERE id = ${id} FOR UPDATE')).toEqual([]);
  });

  it("finds status and counter writes in SQL, and not other columns of the event", () => {
    const sql = [
      "await tx.$executeRaw`",
      '  UPDATE "Campaign" SET "committedCount" = "committedCount" + ${people}, "pledgeCount" = "pledgeCount" + 1',
      "  WHERE id = ${campaignId}`;",
      'await db.$executeRaw`UPDATE "Campaign" AS c SET "status" = \'charged\' WHERE c."id" = ${id}`;',
      'await db.$executeRaw`UPDATE "Campaign" SET "coverId" = NULL WHERE "status" = \'pending\'`;',
    ].join("\n");
    expect(check("lib/campaigns/waitlist.ts", sql)).toEqual([
      { line: 2, what: "writes Campaign.committedCount in SQL" },
      { line: 4, what: "writes Campaign.status in SQL" },
    ]);
  });

  it("finds Prisma writes of the status or a counter in data, not in where, and increments anywhere", () => {
    const prisma = [
      "await tx.campaign.update({",
      "  where: { id: campaignId },",
      '  data: { status: "funded", fundedAt: now },',
      "});",
      'await db.campaign.updateMany({ where: { id, status: "funded" }, data: { payoutCheckedAt: now } });',
      'await tx.campaign.update({ where: { id }, data: { goAheadAt: now, ...(free ? { chargeType: "free", totalCharged: n } : {}) } });',
      "await db.campaign.update({ where: { id }, data: { coverId: null, creator: { connect: { id: u } } } });",
      "await db.pledge.update({ where: { id }, data: { campaign: { update: { waitlistCount: { increment: 1 } } } } });",
    ].join("\n");
    expect(check("lib/campaigns/go-ahead.ts", prisma)).toEqual([
      { line: 1, what: "writes Campaign.status with Prisma (update)" },
      { line: 6, what: "writes Campaign.totalCharged with Prisma (update)" },
      { line: 8, what: "increments waitlistCount" },
    ]);
    expect(topKeys("{ status, title: t, nested: { pledgeCount: 1 } }")).toEqual([
      "status",
      "title",
      "nested",
    ]);
  });

  it("allows database functions that only touch the event row when listed, never one that writes a counter or the status", () => {
    const touch = `CREATE OR REPLACE FUNCTION pn_touch_campaigns_new() RETURNS trigger AS E'
BEGIN
  UPDATE "Campaign" SET "updatedAt" = clock_timestamp() WHERE id IN (SELECT "campaignId" FROM pn_new_rows)\\073
  RETURN NULL\\073
END\\073
' LANGUAGE plpgsql;`;
    expect(triggerProblems(touch)).toEqual([]);
    expect(triggerProblems(touch.replace("pn_touch_campaigns_new", "pn_other"))).toEqual([
      { name: "pn_other", what: "writes the Campaign row" },
    ]);
    expect(
      triggerProblems(touch.replace('"updatedAt" = clock_timestamp()', '"pledgeCount" = "pledgeCount" + 1')),
    ).toEqual([{ name: "pn_touch_campaigns_new", what: "writes Campaign.pledgeCount" }]);
    const stamp = `CREATE FUNCTION pn_funded() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN NEW."status" := 'funded'; RETURN NEW; END $$;`;
    expect(triggerProblems(stamp)).toEqual([{ name: "pn_funded", what: "writes Campaign.status" }]);
  });
});
