import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { runCharging } from "@/lib/charging/service";
import { isFreeEvent, isPaidEvent } from "@/lib/events/lifecycle";
import { createCampaign, createUser } from "../helpers/factories";

// issue 15: two copies of a rule disagreed; DESIGN settles each, and these pin the settlement.
const asViewer = async () => {
  const u = await createUser();
  return { id: u.id, email: u.email, name: u.name, isAdmin: false };
};

describe("the campaign core settles what its copies disagreed on", () => {
  it("a $0 crowdfund is a paid pact (card saved, charged at the tip), never a free one (DESIGN 'pact types')", () => {
    const zeroCrowdfund = { pactType: "crowdfund", ticketPriceCents: 0, depositCents: 0 };
    expect(isPaidEvent(zeroCrowdfund)).toBe(true);
    expect(isFreeEvent(zeroCrowdfund)).toBe(false);
    expect(isPaidEvent({ pactType: "paction", ticketPriceCents: 0, depositCents: 0 })).toBe(false);
    expect(isFreeEvent({ pactType: null, ticketPriceCents: 0, depositCents: 0 })).toBe(true);
  });

  it("a $0 crowdfund asks for a card: a commit without one is refused and nothing is written", async () => {
    const c = await createCampaign({ goal: 5, ticketPriceCents: 0 });
    await db.campaign.update({ where: { id: c.id }, data: { pactType: "crowdfund" } });
    await expect(commitToCampaign(await asViewer(), { campaignId: c.id, amount: "5" })).rejects.toThrow(
      "Please save a payment method to commit to this paid event.",
    );
    expect(await db.pledge.count({ where: { campaignId: c.id } })).toBe(0);
  });

  it("a free event's totalCharged is the number of pledges confirmed, whichever path confirms it (DESIGN 'free events')", async () => {
    // Path 1: the commit that crosses the threshold confirms the event at once.
    const tipped = await createCampaign({ goal: 2, ticketPriceCents: 0 });
    await commitToCampaign(await asViewer(), { campaignId: tipped.id });
    await commitToCampaign(await asViewer(), { campaignId: tipped.id });
    // Path 2: a free event moved to `funded` some other way (a recount) is confirmed by the charging run.
    const recounted = await createCampaign({ goal: 5, ticketPriceCents: 0 });
    for (let i = 0; i < 3; i++) await commitToCampaign(await asViewer(), { campaignId: recounted.id });
    await db.campaign.update({ where: { id: recounted.id }, data: { status: "funded" } });
    await runCharging(recounted.id);
    // Path 3: a late commit to a confirmed free event that keeps accepting.
    await db.campaign.update({ where: { id: tipped.id }, data: { acceptAfterThreshold: true } });
    await commitToCampaign(await asViewer(), { campaignId: tipped.id });

    for (const [id, pledges] of [
      [tipped.id, 3],
      [recounted.id, 3],
    ] as const) {
      const c = await db.campaign.findUniqueOrThrow({
        where: { id },
        select: { status: true, totalCharged: true, totalChargedCents: true, chargeType: true },
      });
      expect(c).toEqual({
        status: "charged",
        totalCharged: pledges,
        totalChargedCents: 0n,
        chargeType: "free",
      });
      expect(await db.pledge.count({ where: { campaignId: id, charged: true, chargeType: "free" } })).toBe(
        pledges,
      );
    }
  });
});
