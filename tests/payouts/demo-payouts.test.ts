import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createCampaign, createUser } from "@/tests/helpers/factories";
import { startPayoutOnboarding, setDemoAccountState, getPayoutAccount } from "@/lib/payouts/accounts";
import { listDuePayouts, runPayout } from "@/lib/payouts/service";
import { getPayoutsCsv, getPayoutsView } from "@/lib/payouts/queries";
import { demoProcessingFee } from "@/lib/payments/demo-gateway";

/**
 * Payouts in demo mode (issue 23), the embedded default: the clearly marked onboarding stand-in has
 * Stripe's states, and a demo event's money is "transferred" once, after the hold.
 */
describe("demo payouts", () => {
  it("onboards through the demo page's states, then pays a tipped event once, after its hold", async () => {
    const organizer = await createUser({ emailVerified: new Date() }); // payouts need a confirmed address
    expect((await getPayoutAccount(organizer.id)).status).toBe("not_started");
    const { url } = await startPayoutOnboarding(organizer);
    const accountId = new URL(url).searchParams.get("account")!;
    expect(url).toMatch(/\/payouts\/demo\?account=acct_demo_/);
    expect((await getPayoutAccount(organizer.id)).status).toBe("pending");
    // only the owner can use the demo page, with a known outcome
    const other = await createUser();
    await expect(setDemoAccountState(other, { accountId, outcome: "ready" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(setDemoAccountState(organizer, { accountId, outcome: "rich" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect((await setDemoAccountState(organizer, { accountId, outcome: "restricted" })).status).toBe(
      "restricted",
    );
    expect((await setDemoAccountState(organizer, { accountId, outcome: "ready" })).status).toBe("ready");

    // a charged demo event of 4 at $20, tipped 3 days ago: not yet
    const campaign = await createCampaign({
      creatorId: organizer.id,
      goal: 4,
      ticketPriceCents: 2000,
      status: "charged",
    });
    for (let i = 0; i < 4; i++) {
      const backer = await createUser();
      const pledge = await db.pledge.create({
        data: {
          campaignId: campaign.id,
          userId: backer.id,
          contributor: "x",
          amountCents: 2000,
          chargeStatus: "succeeded",
          charged: true,
          chargedAt: new Date(),
          chargeType: "paid",
          processingFeeCents: demoProcessingFee(2000),
        },
      });
      // a charge is a money row too (lib/ledger), which the payout ledger sums
      await db.moneyMovement.create({
        data: {
          kind: "charge",
          purpose: "ticket",
          state: "succeeded",
          amountCents: 2000,
          idempotencyKey: `charge-${pledge.id}`,
          campaignId: campaign.id,
          pledgeId: pledge.id,
        },
      });
    }
    await db.campaign.update({
      where: { id: campaign.id },
      data: { fundedAt: new Date(Date.now() - 3 * 86_400_000) },
    });
    expect(await runPayout(campaign.id)).toEqual([]);
    const before = (await getPayoutsView(organizer)).events[0];
    expect(before).toMatchObject({ pendingCents: 4 * (2000 - demoProcessingFee(2000)), paidOutCents: 0 });
    expect(new Date(before.nextPayoutAt!).getTime()).toBeGreaterThan(Date.now() + 3 * 86_400_000);

    await db.campaign.update({
      where: { id: campaign.id },
      data: { fundedAt: new Date(Date.now() - 8 * 86_400_000) },
    });
    expect(await listDuePayouts()).toContain(campaign.id);
    const [made] = await runPayout(campaign.id);
    expect(made).toMatchObject({ status: "succeeded", id: expect.stringMatching(/^tr_demo_/) });
    expect(await runPayout(campaign.id)).toEqual([]);
    expect(await listDuePayouts()).not.toContain(campaign.id);
    const after = await getPayoutsView(organizer);
    expect(after.totals).toMatchObject({
      paidOutCents: 4 * (2000 - demoProcessingFee(2000)),
      pendingCents: 0,
    });
    expect(after.movements).toHaveLength(1);
    const csv = await getPayoutsCsv(organizer);
    expect(csv.split("\r\n")[1]).toContain(`"${(4 * (2000 - demoProcessingFee(2000))) / 100}`);
  });
});
