import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { finalizeIfDone } from "@/lib/charging/run";
import { getCommitPanel } from "@/lib/pledges/queries";
import { getManageView } from "@/lib/pledges/manage-queries";
import { getCampaignDetail, listCampaignsByCreator } from "@/lib/campaigns/queries";
import { commitToCampaign } from "@/lib/pledges/service";
import { formatCents } from "@/lib/format";
import { createCampaign, createUser } from "@/tests/helpers/factories";

// Issue 13 item 6: the limits allow 10,000 attendees × $10,000 = 10^10 cents, but totalChargedCents
// and raisedCents were int4 (at most 2^31 − 1 ≈ $21.4M): summing a big event's charges failed.
const OVER_INT4 = 2 ** 31;

describe("money sums above 2^31 cents", () => {
  it("a paid event's charges add up past 2^31 cents and every view shows the right dollars", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({
      creatorId: creator.id,
      goal: 2200,
      ticketPriceCents: 1_000_000,
      status: "charging",
    });
    const users = await db.user.createManyAndReturn({
      data: Array.from({ length: 2200 }, (_, i) => ({ email: `big-${i}-${campaign.id}@example.test` })),
      select: { id: true },
    });
    await db.pledge.createMany({
      data: users.map((u) => ({
        campaignId: campaign.id,
        userId: u.id,
        contributor: "Anonymous Backer",
        amountCents: 1_000_000,
        charged: true,
        chargedAt: new Date(),
        chargeStatus: "succeeded" as const,
        chargeType: "paid" as const,
        paymentIntentId: `pi_${u.id}`,
      })),
    });
    // a charge is a money row too (lib/ledger): the manage page's figures are the payout ledger's (issue 34)
    const charged = await db.pledge.findMany({ where: { campaignId: campaign.id }, select: { id: true } });
    await db.moneyMovement.createMany({
      data: charged.map((p) => ({
        kind: "charge" as const,
        purpose: "ticket" as const,
        state: "succeeded" as const,
        amountCents: 1_000_000,
        idempotencyKey: `charge-${p.id}`,
        campaignId: campaign.id,
        pledgeId: p.id,
      })),
    });
    expect(await finalizeIfDone(campaign.id)).toBe(true);
    const row = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(row.totalChargedCents).toBe(2_200_000_000n);
    expect(Number(row.totalChargedCents)).toBeGreaterThan(OVER_INT4);

    const view = await getManageView(campaign.id, {
      id: creator.id,
      email: creator.email,
      name: creator.name,
      isAdmin: false,
    });
    expect(view!.campaign.totalChargedCents).toBe(2_200_000_000);
    expect([view!.money.collectedCents, view!.money.chargeCount]).toEqual([2_200_000_000, 2200]);
    expect(formatCents(view!.campaign.totalChargedCents)).toBe("$22,000,000.00");
    // the view is plain JSON (a bigint would throw here, as in Response.json)
    expect(() => JSON.stringify(view)).not.toThrow();
  }, 90_000);

  it("a crowdfund keeps counting past 2^31 cents raised, through the commit path and every reader", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id, goal: 10_000, pactType: "crowdfund" });
    await db.campaign.update({
      where: { id: campaign.id },
      data: { raisedCents: BigInt(OVER_INT4) + 50_000n },
    });
    const backer = await createUser();
    const viewer = { id: backer.id, email: backer.email, name: backer.name, isAdmin: false };
    await db.demoPaymentMethod.create({
      data: {
        id: `pm_demo_big_${backer.id}`,
        userId: backer.id,
        brand: "visa",
        last4: "4242",
        expMonth: 12,
        expYear: 2034,
        behavior: "ok",
      },
    });
    const result = await commitToCampaign(viewer, {
      campaignId: campaign.id,
      amount: "10000",
      paymentMethodId: `pm_demo_big_${backer.id}`,
    });
    expect(result).toBeTruthy();
    const row = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(row.raisedCents).toBe(BigInt(OVER_INT4) + 50_000n + 1_000_000n);

    const detail = await getCampaignDetail(campaign.id);
    expect(detail!.raisedCents).toBe(OVER_INT4 + 1_050_000);
    expect(formatCents(detail!.raisedCents)).toBe("$21,485,336.48");
    const panel = await getCommitPanel(campaign.id, viewer);
    expect(() => JSON.stringify(panel)).not.toThrow();
    const pacts = await listCampaignsByCreator(creator.id);
    expect(pacts[0].raisedCents).toBe(OVER_INT4 + 1_050_000);
    const view = await getManageView(campaign.id, {
      id: creator.id,
      email: creator.email,
      name: creator.name,
      isAdmin: false,
    });
    expect(view!.campaign.raisedCents).toBe(OVER_INT4 + 1_050_000);
    expect(view!.campaign.committedCount).toBe(Math.floor((OVER_INT4 + 1_050_000) / 100));
  });
});
