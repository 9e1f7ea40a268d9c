import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { runCharging } from "@/lib/charging/service";
import { runPayout, payoutKey } from "@/lib/payouts/service";
import { refundOwedPledges } from "@/lib/ledger/refunds";
import { heldCents, refundState } from "@/lib/ledger/queries";
import { demoGateway } from "@/lib/payments/demo-gateway";
import { chargeIdempotencyKey, type PaymentGateway } from "@/lib/payments/types";
import { createCampaign, createDemoPayoutAccount, createUser } from "@/tests/helpers/factories";

/**
 * Issue 32 item 2: every money movement is one MoneyMovement row, written with the columns it
 * mirrors, under the idempotency key the provider was sent — in demo mode, whose provider records
 * (DemoPaymentIntent) the rows must add up to.
 */

async function demoCard(userId: string, behavior = "ok"): Promise<string> {
  const id = `pm_demo_${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`.slice(
    0,
    40,
  );
  await db.demoPaymentMethod.create({
    data: { id, userId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, behavior },
  });
  return id;
}

/** A paid demo event at its threshold (`funded`), its organizer ready to be paid. */
async function fundedDemoEvent(n: number, priceCents: number, behaviors: string[] = []) {
  const organizer = await createUser({ emailVerified: new Date() });
  await createDemoPayoutAccount(organizer.id, "ready");
  const campaign = await createCampaign({
    creatorId: organizer.id,
    goal: n,
    ticketPriceCents: priceCents,
    status: "funded",
  });
  const pledges = [];
  for (let i = 0; i < n; i++) {
    const u = await createUser();
    pledges.push(
      await db.pledge.create({
        data: {
          campaignId: campaign.id,
          userId: u.id,
          contributor: u.email,
          amountCents: priceCents,
          paymentMethodId: await demoCard(u.id, behaviors[i] ?? "ok"),
          memberSince: new Date(),
          createdAt: new Date(Date.now() - (n - i) * 1000),
        },
      }),
    );
  }
  await db.campaign.update({
    where: { id: campaign.id },
    data: { committedCount: n, pledgeCount: n, fundedAt: new Date() },
  });
  return { campaign, pledges };
}

const movements = (campaignId: string) =>
  db.moneyMovement.findMany({ where: { campaignId }, orderBy: { id: "asc" } });

/** What the demo provider holds for these pledges: succeeded payments not refunded. */
async function demoHeld(pledgeIds: string[]): Promise<number> {
  const intents = await db.demoPaymentIntent.findMany({ where: { status: "succeeded", refunded: false } });
  return intents
    .filter((pi) => pledgeIds.includes(String((pi.metadata as { pledgeId?: string })?.pledgeId)))
    .reduce((sum, pi) => sum + pi.amountCents, 0);
}

describe("money movements", () => {
  it("a charge, a refund, a transfer and a reversal each leave exactly one row, under the key the provider was sent", async () => {
    const { campaign, pledges } = await fundedDemoEvent(3, 2000);
    const ids = pledges.map((p) => p.id);

    // charges: one succeeded row per pledge, keyed like the provider's payment
    await runCharging(campaign.id);
    await runCharging(campaign.id); // nothing more to charge: no second row
    let rows = await movements(campaign.id);
    expect(rows).toHaveLength(3);
    for (const p of pledges) {
      const pledge = await db.pledge.findUniqueOrThrow({ where: { id: p.id } });
      const intent = await db.demoPaymentIntent.findUniqueOrThrow({ where: { id: pledge.paymentIntentId! } });
      const row = rows.find((r) => r.pledgeId === p.id)!;
      expect(row).toMatchObject({
        kind: "charge",
        purpose: "ticket",
        state: "succeeded",
        amountCents: 2000n,
        providerId: intent.id,
        idempotencyKey: chargeIdempotencyKey(p.id, 1),
      });
      expect(intent.idempotencyKey).toBe(row.idempotencyKey);
    }
    expect(await heldCents(campaign.id)).toBe(6000);
    expect(await demoHeld(ids)).toBe(6000);

    // a transfer to the organizer after the hold: one row, linked to its Payout row
    await db.campaign.update({
      where: { id: campaign.id },
      data: { fundedAt: new Date(Date.now() - 30 * 86_400_000) },
    });
    const [made] = await runPayout(campaign.id);
    expect(made).toMatchObject({ status: "succeeded" });
    const transfer = await db.payout.findFirstOrThrow({
      where: { campaignId: campaign.id, kind: "transfer" },
    });
    rows = await movements(campaign.id);
    expect(rows.filter((r) => r.kind === "transfer")).toEqual([
      expect.objectContaining({
        purpose: "payout",
        state: "succeeded",
        payoutId: transfer.id,
        amountCents: transfer.amountCents,
        providerId: transfer.providerId,
        idempotencyKey: payoutKey(campaign.id, transfer.seq),
        pledgeId: null,
      }),
    ]);

    // a refund of a withdrawn pledge: one row naming the charge it gives back, asked once
    await db.pledge.update({ where: { id: ids[0] }, data: { withdrawnAt: new Date() } });
    const asked: string[] = [];
    const real = demoGateway();
    const counting: PaymentGateway = {
      ...real,
      refund: (input) => {
        asked.push(input.key);
        return real.refund(input);
      },
    };
    expect(await refundOwedPledges(campaign.id, counting)).toBe(1);
    expect(await refundOwedPledges(campaign.id, counting)).toBe(0);
    expect(asked).toEqual([`refund-${ids[0]}`]);
    rows = await movements(campaign.id);
    const charge0 = rows.find((r) => r.kind === "charge" && r.pledgeId === ids[0])!;
    const refunded = await db.pledge.findUniqueOrThrow({ where: { id: ids[0] } });
    expect(rows.filter((r) => r.kind === "refund")).toEqual([
      expect.objectContaining({
        pledgeId: ids[0],
        state: "succeeded",
        amountCents: 2000n,
        providerId: refunded.refundId,
        idempotencyKey: `refund-${ids[0]}`,
        sourceId: charge0.id,
      }),
    ]);
    expect(refunded.chargeStatus).toBe("refunded");

    // the refund came after the transfer: one reversal, naming the transfer
    const reversals = await runPayout(campaign.id);
    expect(reversals).toHaveLength(1);
    const reversal = await db.payout.findFirstOrThrow({
      where: { campaignId: campaign.id, kind: "reversal" },
    });
    rows = await movements(campaign.id);
    const transferRow = rows.find((r) => r.kind === "transfer")!;
    expect(rows.filter((r) => r.kind === "reversal")).toEqual([
      expect.objectContaining({
        state: "succeeded",
        payoutId: reversal.id,
        amountCents: reversal.amountCents,
        providerId: reversal.providerId,
        idempotencyKey: payoutKey(campaign.id, reversal.seq),
        sourceId: transferRow.id,
      }),
    ]);
    expect(rows).toHaveLength(6);

    // the rows add up to what the provider holds, and say which pledge is refunded
    expect(await heldCents(campaign.id)).toBe(4000);
    expect(await demoHeld(ids)).toBe(4000);
    const money = await refundState([ids[0], ids[1], "no-such-pledge"]);
    expect(money.get(ids[0])).toEqual({ refund: "refunded", chargedCents: 2000, refundedCents: 2000 });
    expect(money.get(ids[1])).toEqual({ refund: "none", chargedCents: 2000, refundedCents: 0 });
    expect(money.get("no-such-pledge")).toEqual({ refund: "none", chargedCents: 0, refundedCents: 0 });
  });

  it("a refund whose answer is lost stays pending, and is asked again under the same key", async () => {
    const { campaign, pledges } = await fundedDemoEvent(2, 1500);
    await runCharging(campaign.id);
    const id = pledges[1].id;
    await db.pledge.update({ where: { id }, data: { withdrawnAt: new Date() } });
    const real = demoGateway();
    const asked: string[] = [];
    const losing: PaymentGateway = {
      ...real,
      refund: async (input) => {
        asked.push(input.key);
        await real.refund(input); // the provider refunds, but the answer never arrives
        throw new Error("connection reset");
      },
    };
    expect(await refundOwedPledges(campaign.id, losing)).toBe(0);
    expect((await refundState([id])).get(id)!.refund).toBe("pending");
    expect((await db.pledge.findUniqueOrThrow({ where: { id } })).refundId).toBeNull();
    // the provider already gave the money back: the rows say so only once the answer is recorded
    expect(await demoHeld(pledges.map((p) => p.id))).toBe(1500);
    expect(await heldCents(campaign.id)).toBe(3000);

    const replaying: PaymentGateway = {
      ...real,
      refund: (input) => {
        asked.push(input.key);
        return real.refund(input);
      },
    };
    expect(await refundOwedPledges(campaign.id, replaying)).toBe(1);
    expect(asked).toEqual([`refund-${id}`, `refund-${id}`]);
    const refunds = await db.moneyMovement.findMany({ where: { pledgeId: id, kind: "refund" } });
    expect(refunds).toHaveLength(1);
    expect(refunds[0].state).toBe("succeeded");
    expect((await refundState([id])).get(id)!.refund).toBe("refunded");
    expect(await heldCents(campaign.id)).toBe(await demoHeld(pledges.map((p) => p.id)));
  });

  it("a declined charge leaves one failed row with its code; at most one successful charge per pledge and purpose", async () => {
    const { campaign, pledges } = await fundedDemoEvent(2, 1000, ["ok", "charge_fails"]);
    await runCharging(campaign.id);
    const rows = await movements(campaign.id);
    expect(rows.map((r) => [r.pledgeId, r.state, r.failureCode, r.idempotencyKey])).toEqual(
      expect.arrayContaining([
        [pledges[0].id, "succeeded", null, chargeIdempotencyKey(pledges[0].id, 1)],
        [pledges[1].id, "failed", "card_declined", chargeIdempotencyKey(pledges[1].id, 1)],
      ]),
    );
    expect(rows).toHaveLength(2);
    // the database refuses a second successful charge of the same pledge and purpose
    await expect(
      db.moneyMovement.create({
        data: {
          kind: "charge",
          purpose: "ticket",
          state: "succeeded",
          amountCents: 1000n,
          idempotencyKey: `pledge-${pledges[0].id}-attempt-9`,
          campaignId: campaign.id,
          pledgeId: pledges[0].id,
        },
      }),
    ).rejects.toThrow(/Unique constraint|MoneyMovement_one_charge_key/);
    expect(await heldCents(campaign.id)).toBe(await demoHeld(pledges.map((p) => p.id)));
  });
});
