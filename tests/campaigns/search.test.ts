import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { listHomeCampaigns } from "@/lib/campaigns/queries";
import { SEARCH_DOCUMENT } from "@/lib/campaigns/search";
import { createCampaign } from "@/tests/helpers/factories";

const day = 86400_000;
const ids = (page: { campaigns: { id: string }[] }) => page.campaigns.map((c) => c.id);
const search = async (q: string, isAdmin = false) => ids(await listHomeCampaigns({ q, isAdmin })).sort();

describe("home search (issue 34)", () => {
  it("matches a word of the title, the description or the public place", async () => {
    await db.campaign.deleteMany({});
    const byTitle = await createCampaign({ title: "Accordion evening by the river" });
    const byDescription = await createCampaign({
      description: "We will bring sandwiches and a thermos of marmalade tea for everyone.",
    });
    const byVenue = await createCampaign({ venue: "Zanzibar Hall" });
    const byArea = await createCampaign({
      area: "Kittelsen Quarter",
      address: "1 Hidden Way",
      addressPrivate: true,
    });
    const byAddress = await createCampaign({ address: "12 Quokka Street", addressPrivate: false });
    await createCampaign({ title: "Something else entirely" });

    expect(await search("accordion")).toEqual([byTitle.id]);
    expect(await search("marmalade")).toEqual([byDescription.id]);
    expect(await search("zanzibar")).toEqual([byVenue.id]);
    expect(await search("kittelsen")).toEqual([byArea.id]);
    expect(await search("quokka")).toEqual([byAddress.id]);
    // stemming and websearch syntax: "evenings" finds "evening"; a phrase; an excluded word
    expect(await search("evenings")).toEqual([byTitle.id]);
    expect(await search('"marmalade tea"')).toEqual([byDescription.id]);
    expect(await search("accordion -river")).toEqual([]);
  });

  it("never finds an attendee-only address, nor an event a visitor may not see", async () => {
    await db.campaign.deleteMany({});
    const hidden = await createCampaign({
      venue: "Public Hall",
      address: "99 Secretive Lane",
      addressPrivate: true,
    });
    const pending = await createCampaign({ title: "Wombat picnic pending", approvalStatus: "pending" });
    const rejected = await createCampaign({ title: "Wombat picnic rejected", approvalStatus: "rejected" });
    const crowdfund = await createCampaign({ title: "Wombat picnic crowdfund", pactType: "crowdfund" });
    const untyped = await createCampaign({ title: "Wombat picnic untyped", pactType: null });

    expect(await search("secretive")).toEqual([]);
    expect(await search("lane")).toEqual([]);
    expect(await search("public hall")).toEqual([hidden.id]);
    expect(await search("wombat")).toEqual([untyped.id]);
    // admins see every approval state on home, as without a search; crowdfunds never
    expect(await search("wombat", true)).toEqual([pending.id, rejected.id, untyped.id].sort());
    expect(await search("wombat", true)).not.toContain(crowdfund.id);
  });

  it("keeps the filters: active and ending list joinable events only", async () => {
    await db.campaign.deleteMany({});
    const now = new Date();
    const open = await createCampaign({
      title: "Otter choir open",
      deadline: new Date(now.getTime() + 2 * day),
    });
    await createCampaign({ title: "Otter choir cancelled", status: "cancelled" });
    await createCampaign({ title: "Otter choir over", deadline: new Date(now.getTime() - day) });
    const funded = await createCampaign({ title: "Otter choir funded", status: "funded" });
    const late = await createCampaign({
      title: "Otter choir late",
      status: "funded",
      acceptAfterThreshold: true,
      deadline: new Date(now.getTime() + 3 * day),
    });
    const found = async (filter: "active" | "ending" | "funded") =>
      ids(await listHomeCampaigns({ q: "otter", filter, now })).sort();
    expect(await found("active")).toEqual([open.id, late.id].sort());
    expect(await found("ending")).toEqual([open.id, late.id].sort());
    expect(await found("funded")).toEqual([funded.id, late.id].sort());
    // the same answers without a search (the Prisma path) as with one (the SQL path)
    expect(ids(await listHomeCampaigns({ filter: "active", now })).sort()).toEqual(await found("active"));
    expect(ids(await listHomeCampaigns({ filter: "active", now, sort: "ending" })).sort()).toEqual(
      await found("active"),
    );
  });

  it("the index is built on the very expression the query uses, and the planner uses it", async () => {
    const dir = path.resolve(__dirname, "../../prisma/migrations/20261126193000_home_search/migration.sql");
    expect(fs.readFileSync(dir, "utf8").replace(/\s+/g, " ")).toContain(
      `USING GIN (${SEARCH_DOCUMENT})`.replace(/\s+/g, " "),
    );
    const plan = await db.$transaction(async (tx) => {
      await tx.$executeRawUnsafe("SET LOCAL enable_seqscan = off");
      return tx.$queryRawUnsafe<{ "QUERY PLAN": string }[]>(
        `EXPLAIN SELECT id FROM "Campaign" WHERE ${SEARCH_DOCUMENT} @@ websearch_to_tsquery('english'::regconfig, 'jazz')`,
      );
    });
    expect(plan.map((r) => r["QUERY PLAN"]).join("\n")).toContain("Campaign_search_idx");
  });
});

describe("home sorts (issue 34)", () => {
  it("nearly there puts 58 of 60 first, ahead of newer and emptier events", async () => {
    await db.campaign.deleteMany({});
    const base = Date.now() - 10 * day;
    const almost = await createCampaign({ goal: 60, createdAt: new Date(base) });
    await db.campaign.update({ where: { id: almost.id }, data: { committedCount: 58 } });
    const half = await createCampaign({ goal: 10, createdAt: new Date(base + 1000) });
    await db.campaign.update({ where: { id: half.id }, data: { committedCount: 5 } });
    const empty = await createCampaign({ goal: 10, createdAt: new Date(base + 2000) });
    const done = await createCampaign({ goal: 5, status: "charged", createdAt: new Date(base + 3000) });
    await db.campaign.update({ where: { id: done.id }, data: { committedCount: 5 } });
    for (let i = 0; i < 30; i++) await createCampaign({ goal: 100, createdAt: new Date(base + 10_000 + i) });

    const newest = await listHomeCampaigns();
    expect(ids(newest)).not.toContain(almost.id); // page 2 when newest first
    const nearly = await listHomeCampaigns({ sort: "nearly" });
    expect(nearly.total).toBe(34);
    expect(ids(nearly).slice(0, 3)).toEqual([almost.id, half.id, empty.id]);
    // confirmed events come after those still collecting
    expect(ids(await listHomeCampaigns({ sort: "nearly", page: 2 }))).toContain(done.id);
  });

  it("ending soon: the nearest deadline still ahead first, past deadlines last", async () => {
    await db.campaign.deleteMany({});
    const now = Date.now();
    const later = await createCampaign({ deadline: new Date(now + 9 * day) });
    const soon = await createCampaign({ deadline: new Date(now + 1 * day) });
    const past = await createCampaign({ deadline: new Date(now - 2 * day) });
    const middle = await createCampaign({ deadline: new Date(now + 4 * day) });
    expect(ids(await listHomeCampaigns({ sort: "ending" }))).toEqual([soon.id, middle.id, later.id, past.id]);
    expect(ids(await listHomeCampaigns({ sort: "ending", filter: "active" }))).toEqual([
      soon.id,
      middle.id,
      later.id,
    ]);
  });
});
