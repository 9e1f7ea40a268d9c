import { describe, expect, it } from "vitest";
import { listCampaignsByCreator } from "@/lib/campaigns/queries";
import { db } from "@/lib/db";
import { createCampaign, createUser } from "../helpers/factories";

describe("listCampaignsByCreator (profile: Your Active Pacts)", () => {
  it("lists only the creator's campaigns, newest first, whatever their approval", async () => {
    const me = await createUser();
    const someoneElse = await createUser();
    const day = 24 * 3600_000;
    const old = await createCampaign({
      creatorId: me.id,
      title: "Old picnic",
      createdAt: new Date(Date.now() - 3 * day),
    });
    const pending = await createCampaign({
      creatorId: me.id,
      title: "Pending run",
      approvalStatus: "pending",
      createdAt: new Date(Date.now() - day),
    });
    const rejected = await createCampaign({
      creatorId: me.id,
      title: "Rejected gig",
      approvalStatus: "rejected",
      createdAt: new Date(),
    });
    await createCampaign({ creatorId: someoneElse.id, title: "Not mine" });

    const pacts = await listCampaignsByCreator(me.id);
    expect(pacts.map((p) => p.id)).toEqual([rejected.id, pending.id, old.id]);
    expect(pacts.map((p) => p.approvalStatus)).toEqual(["rejected", "pending", "approved"]);
    expect(await listCampaignsByCreator((await createUser()).id)).toEqual([]);
  });

  it("gives Goal and Raised in cents: goal × ticket price and committed × ticket price for a paction", async () => {
    const me = await createUser();
    const paid = await createCampaign({ creatorId: me.id, goal: 15, ticketPriceCents: 1250 });
    await db.campaign.update({ where: { id: paid.id }, data: { committedCount: 4 } });
    const [pact] = await listCampaignsByCreator(me.id);
    expect(pact).toMatchObject({
      goal: 15,
      committedCount: 4,
      ticketPriceCents: 1250,
      goalCents: 18_750,
      raisedCents: 5_000,
      pactType: "paction",
    });
  });

  it("gives a free paction zero dollars, and a crowdfund its dollar goal and pledged sum", async () => {
    const me = await createUser();
    const free = await createCampaign({
      creatorId: me.id,
      goal: 25,
      ticketPriceCents: 0,
      createdAt: new Date(Date.now() - 1000),
    });
    await db.campaign.update({ where: { id: free.id }, data: { committedCount: 9 } });
    const fund = await createCampaign({ creatorId: me.id, goal: 500, pactType: "crowdfund" });
    await db.campaign.update({ where: { id: fund.id }, data: { raisedCents: 12_345, committedCount: 3 } });

    const [crowdfund, paction] = await listCampaignsByCreator(me.id);
    expect(crowdfund).toMatchObject({
      id: fund.id,
      pactType: "crowdfund",
      goalCents: 50_000,
      raisedCents: 12_345,
    });
    expect(paction).toMatchObject({
      id: free.id,
      pactType: "paction",
      goalCents: 0,
      raisedCents: 0,
      committedCount: 9,
    });
  });
});
