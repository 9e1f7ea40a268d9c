import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getCampaignForViewer, listHomeCampaigns } from "@/lib/campaigns/queries";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

const day = 86400_000;

describe("listHomeCampaigns", () => {
  it("lists approved pactions (and unset type) newest first; admins see every approval state", async () => {
    const base = Date.now() - 10 * day;
    const a = await createCampaign({ createdAt: new Date(base + 1000) });
    const b = await createCampaign({ createdAt: new Date(base + 2000), pactType: null });
    await createCampaign({ createdAt: new Date(base + 3000), pactType: "crowdfund" });
    const pending = await createCampaign({ createdAt: new Date(base + 4000), approvalStatus: "pending" });
    const rejected = await createCampaign({ createdAt: new Date(base + 5000), approvalStatus: "rejected" });

    const visitor = await listHomeCampaigns();
    expect(visitor.campaigns.map((c) => c.id)).toEqual([b.id, a.id]);
    const admin = await listHomeCampaigns({ isAdmin: true });
    expect(admin.campaigns.map((c) => c.id)).toEqual([rejected.id, pending.id, b.id, a.id]);
  });

  it("filters by active, funded and ending soon", async () => {
    await db.campaign.deleteMany({});
    const now = new Date();
    const soon = await createCampaign({ deadline: new Date(now.getTime() + 2 * day) });
    const later = await createCampaign({ deadline: new Date(now.getTime() + 20 * day) });
    const funded = await createCampaign({ status: "funded", deadline: new Date(now.getTime() + 20 * day) });
    const past = await createCampaign({ deadline: new Date(now.getTime() - day) });
    const ids = async (filter: "all" | "active" | "funded" | "ending") =>
      (await listHomeCampaigns({ filter, now })).campaigns.map((c) => c.id).sort();
    expect(await ids("all")).toEqual([soon.id, later.id, funded.id, past.id].sort());
    expect(await ids("active")).toEqual([soon.id, later.id].sort());
    expect(await ids("funded")).toEqual([funded.id]);
    expect(await ids("ending")).toEqual([soon.id]);
  });

  it("pages 24 at a time and clamps the page number", async () => {
    await db.campaign.deleteMany({});
    const creator = await createUser();
    const base = Date.now() - 100 * day;
    for (let i = 0; i < 30; i++)
      await createCampaign({
        creatorId: creator.id,
        createdAt: new Date(base + i * 1000),
        title: `Paged event ${String(i).padStart(2, "0")}`,
      });
    const p1 = await listHomeCampaigns({ page: 1 });
    const p2 = await listHomeCampaigns({ page: 2 });
    expect(p1).toMatchObject({ total: 30, page: 1, pageCount: 2 });
    expect(p1.campaigns).toHaveLength(24);
    expect(p1.campaigns[0].title).toBe("Paged event 29");
    expect(p2.campaigns.map((c) => c.title)).toEqual([
      "Paged event 05",
      "Paged event 04",
      "Paged event 03",
      "Paged event 02",
      "Paged event 01",
      "Paged event 00",
    ]);
    expect((await listHomeCampaigns({ page: 99 })).page).toBe(2);
  });
});

describe("getCampaignForViewer", () => {
  it("hides non-approved events from everyone but the creator and admins", async () => {
    const creator = await createUser();
    const admin = await createUser({ isAdmin: true });
    const stranger = await createUser();
    const c = await createCampaign({ approvalStatus: "pending", creatorId: creator.id });
    expect(await getCampaignForViewer(c.id, null)).toBeNull();
    expect(await getCampaignForViewer(c.id, stranger)).toBeNull();
    expect(await getCampaignForViewer(c.id, creator)).not.toBeNull();
    expect(await getCampaignForViewer(c.id, admin)).not.toBeNull();
    expect(await getCampaignForViewer("../etc/passwd", admin)).toBeNull();
  });

  it("shows the creator's email only to the creator, admins and committed users", async () => {
    const creator = await createUser();
    const admin = await createUser({ isAdmin: true });
    const backer = await createUser();
    const stranger = await createUser();
    const c = await createCampaign({ creatorId: creator.id });
    await createPledge(c.id, backer.id);
    expect((await getCampaignForViewer(c.id, null))?.creatorEmail).toBeNull();
    expect((await getCampaignForViewer(c.id, stranger))?.creatorEmail).toBeNull();
    expect((await getCampaignForViewer(c.id, creator))?.creatorEmail).toBe(creator.email);
    expect((await getCampaignForViewer(c.id, admin))?.creatorEmail).toBe(creator.email);
    const seen = await getCampaignForViewer(c.id, backer);
    expect(seen?.creatorEmail).toBe(creator.email);
    expect(seen?.viewer).toMatchObject({ committed: true, isCreator: false });
  });
});
