import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createCampaign, createPledge, createUser } from "../helpers/factories";

// The database itself refuses rows that break the product's invariants, whatever code writes them.
describe("database constraints", () => {
  it.each([
    ["goal 0", { goal: 0 }],
    ["goal 10,001", { goal: 10_001 }],
    ["a 4-character title", { title: "abcd" }],
    ["a 101-character title", { title: "x".repeat(101) }],
    ["a 19-character description", { description: "x".repeat(19) }],
    ["a 1001-character description", { description: "x".repeat(1001) }],
    ["a negative ticket price", { ticketPriceCents: -1 }],
    ["a ticket price above $10,000", { ticketPriceCents: 1_000_001 }],
  ])("rejects a campaign with %s", async (_label, overrides) => {
    await expect(createCampaign(overrides)).rejects.toThrow();
  });

  it("accepts the limits themselves", async () => {
    const a = await createCampaign({
      goal: 1,
      title: "x".repeat(5),
      description: "y".repeat(20),
      ticketPriceCents: 0,
    });
    const b = await createCampaign({
      goal: 10_000,
      title: "x".repeat(100),
      description: "y".repeat(1000),
      ticketPriceCents: 1_000_000,
    });
    expect([a.goal, b.goal]).toEqual([1, 10_000]);
  });

  it("allows one pledge per user per campaign", async () => {
    const campaign = await createCampaign();
    const user = await createUser();
    await createPledge(campaign.id, user.id);
    await expect(createPledge(campaign.id, user.id)).rejects.toThrow(/Unique constraint/i);
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(1);
  });

  it("rejects blank, untrimmed and over-long comments", async () => {
    const campaign = await createCampaign();
    const user = await createUser();
    for (const text of ["", " padded ", "x".repeat(501)]) {
      await expect(
        db.comment.create({ data: { campaignId: campaign.id, authorId: user.id, text } }),
      ).rejects.toThrow();
    }
    await expect(
      db.comment.create({ data: { campaignId: campaign.id, authorId: user.id, text: "x".repeat(500) } }),
    ).resolves.toBeTruthy();
  });

  it("stores emails normalised only", async () => {
    await expect(createUser({ email: "Mixed@Example.test" })).rejects.toThrow();
  });

  it("keeps a user with pledges from being deleted, and deletes a campaign's pledges and comments with it", async () => {
    const campaign = await createCampaign();
    const backer = await createUser();
    await createPledge(campaign.id, backer.id);
    await db.comment.create({ data: { campaignId: campaign.id, authorId: backer.id, text: "hello" } });
    await expect(db.user.delete({ where: { id: backer.id } })).rejects.toThrow();
    await db.campaign.delete({ where: { id: campaign.id } });
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect(await db.comment.count({ where: { campaignId: campaign.id } })).toBe(0);
  });
});
