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

  it("keeps a user with pledges from being deleted; a campaign's comments go with it", async () => {
    const campaign = await createCampaign();
    const backer = await createUser();
    await createPledge(campaign.id, backer.id);
    await db.comment.create({ data: { campaignId: campaign.id, authorId: backer.id, text: "hello" } });
    await expect(db.user.delete({ where: { id: backer.id } })).rejects.toThrow();
    await db.pledge.deleteMany({ where: { campaignId: campaign.id } });
    await db.campaign.delete({ where: { id: campaign.id } });
    expect(await db.comment.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  // Issue 31: money records never cascade away with their event (foreign keys RESTRICT).
  it("refuses a raw DELETE of a campaign with payout rows or pledges, and of a transfer a reversal names", async () => {
    const campaign = await createCampaign({ ticketPriceCents: 2500, status: "charged" });
    const backer = await createUser();
    const pledge = await createPledge(campaign.id, backer.id, { amountCents: 2500 });
    await db.pledge.update({
      where: { id: pledge.id },
      data: {
        chargeStatus: "succeeded",
        charged: true,
        chargedAt: new Date(),
        paymentIntentId: `pi_demo_${pledge.id}`,
      },
    });
    const transfer = await db.payout.create({
      data: {
        campaignId: campaign.id,
        seq: 1,
        kind: "transfer",
        amountCents: 2400n,
        accountId: "acct_demo_a",
      },
    });
    await db.payout.create({
      data: {
        campaignId: campaign.id,
        seq: 2,
        kind: "reversal",
        amountCents: 2400n,
        accountId: "acct_demo_a",
        reversedPayoutId: transfer.id,
      },
    });
    const deleteCampaign = () => db.$executeRaw`DELETE FROM "Campaign" WHERE id = ${campaign.id}`;
    await expect(deleteCampaign()).rejects.toThrow(
      /Payout_campaignId_fkey|Pledge_campaignId_fkey|foreign key/i,
    );
    // without the pledge, the payouts alone still hold it
    await db.$executeRaw`DELETE FROM "Pledge" WHERE id = ${pledge.id}`;
    await expect(deleteCampaign()).rejects.toThrow(/Payout_campaignId_fkey|foreign key/i);
    await expect(db.$executeRaw`DELETE FROM "Payout" WHERE id = ${transfer.id}`).rejects.toThrow(
      /Payout_reversedPayoutId_fkey|foreign key/i,
    );
    expect(await db.payout.count({ where: { campaignId: campaign.id } })).toBe(2);
    expect(await db.campaign.count({ where: { id: campaign.id } })).toBe(1);

    // a pledge alone (a saved card, nothing charged) holds its campaign too
    const other = await createCampaign({ ticketPriceCents: 1000 });
    await createPledge(other.id, backer.id, { paymentMethodId: "pm_demo_saved" });
    await expect(db.$executeRaw`DELETE FROM "Campaign" WHERE id = ${other.id}`).rejects.toThrow(
      /Pledge_campaignId_fkey|foreign key/i,
    );
    expect(await db.pledge.count({ where: { campaignId: other.id } })).toBe(1);
  });
});
