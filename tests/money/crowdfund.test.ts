import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { runCharging } from "@/lib/charging/service";
import { getCommitPanel } from "@/lib/pledges/queries";
import { getManageView } from "@/lib/pledges/manage-queries";
import { COMMIT_MESSAGES } from "@/lib/access/pledge-policy";
import { formatCents } from "@/lib/format";
import { createCampaign, createUser } from "@/tests/helpers/factories";

// Issue 13 item 7 / DESIGN §1 "pact types": a crowdfund with a $0 ticket price reached "Event
// Confirmed!" with $0 collected and no card asked. Crowdfund backers pledge an amount with a saved
// card and are charged that amount at the tip, exactly like a paid paction.

async function demoCard(userId: string) {
  const id = `pm_demo_cf${Math.random().toString(16).slice(2)}`.slice(0, 40);
  await db.demoPaymentMethod.create({
    data: { id, userId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2034, behavior: "ok" },
  });
  return id;
}

describe("a crowdfund at a $0 ticket price", () => {
  it("asks for a card and an amount, charges each backer their pledge at the tip, and never confirms with $0 collected", async () => {
    const organizer = await createUser();
    const campaign = await createCampaign({
      creatorId: organizer.id,
      pactType: "crowdfund",
      goal: 50,
      ticketPriceCents: 0,
    });
    const [a, b] = [await createUser(), await createUser()];
    const va = { id: a.id, email: a.email, name: a.name, isAdmin: false };
    const vb = { id: b.id, email: b.email, name: b.name, isAdmin: false };

    // the commit panel tells the client a card is needed
    expect(await getCommitPanel(campaign.id, va)).toMatchObject({ crowdfund: true, paid: true });
    await expect(commitToCampaign(va, { campaignId: campaign.id, amount: "30" })).rejects.toMatchObject({
      message: COMMIT_MESSAGES.paymentRequired,
    });

    await commitToCampaign(va, {
      campaignId: campaign.id,
      amount: "30",
      paymentMethodId: await demoCard(a.id),
    });
    const crossing = await commitToCampaign(vb, {
      campaignId: campaign.id,
      amount: "25.25",
      paymentMethodId: await demoCard(b.id),
    });
    expect(crossing).toMatchObject({ crossed: true });
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).not.toBe("charged");

    const summary = await runCharging(campaign.id);
    expect(summary.totalCharged).toBe(2);
    const pledgeIds = (
      await db.pledge.findMany({ where: { campaignId: campaign.id }, select: { id: true } })
    ).map((p) => p.id);
    const intents = (await db.demoPaymentIntent.findMany()).filter((i) =>
      pledgeIds.includes((i.metadata as { pledgeId: string }).pledgeId),
    );
    expect(intents.map((i) => i.amountCents).sort((x, y) => x - y)).toEqual([2525, 3000]);

    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([c.status, c.chargeType, c.totalCharged, c.totalChargedCents]).toEqual([
      "charged",
      "paid",
      2,
      5525n,
    ]);
    const view = await getManageView(campaign.id, {
      id: organizer.id,
      email: organizer.email,
      name: organizer.name,
      isAdmin: false,
    });
    expect(formatCents(view!.campaign.totalChargedCents)).toBe("$55.25");
    expect(view!.campaign.paid).toBe(true);
  });
});
