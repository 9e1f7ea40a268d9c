import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { fundedPaidCampaign } from "@/tests/charging/helpers";
import type { CardBehavior } from "@/tests/fake-stripe/server";

/* Issue 37, paid groups: a group's seats are paid by ONE charge of seats × price on the holder's card. */

let fake: FakeStripe;
let service: typeof import("@/lib/charging/service");
let ledger: typeof import("@/lib/payouts/ledger");
let queries: typeof import("@/lib/ledger/queries");

beforeAll(async () => {
  fake = await startFakeStripe({ latencyMs: 2 });
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000" });
  service = await import("@/lib/charging/service");
  ledger = await import("@/lib/payouts/ledger");
  queries = await import("@/lib/ledger/queries");
});
afterAll(async () => {
  await fake.close();
});

let seq = 0;
const PRICE = 2000;

/**
 * A funded paid event with `singles` one-seat commitments and a holder with a group of `seats`
 * (their own seat, whose id is the group's, and guest seats 1..n−1 on the holder's card).
 */
async function eventWithGroup(opts: {
  singles?: number;
  seats: number;
  behavior?: CardBehavior;
  /** the group committed before the singles */
  first?: boolean;
}) {
  const singles = opts.singles ?? 1;
  const base = await fundedPaidCampaign(fake, {
    pledges: singles,
    goal: singles + opts.seats,
    priceCents: PRICE,
  });
  const run = `${Date.now().toString(36)}g${++seq}`;
  const holder = await db.user.create({
    data: {
      id: `u_${run}_h`,
      email: `holder-${run}@example.test`,
      name: "Holder",
      stripeCustomerId: `cus_${run}_h`,
    },
  });
  const card = fake.addPaymentMethod(holder.stripeCustomerId!, opts.behavior ?? "ok");
  const groupId = `p_${run}_0`;
  const createdAt = new Date(Date.now() - (opts.first ? 3_600_000 : 500));
  await db.pledge.createMany({
    data: Array.from({ length: opts.seats }, (_, i) => ({
      id: `p_${run}_${i}`,
      campaignId: base.campaign.id,
      userId: holder.id,
      contributor: "Holder",
      amountCents: PRICE,
      paymentMethodId: card,
      createdAt,
      groupId,
      guestSlot: i,
    })),
  });
  const seatIds = Array.from({ length: opts.seats }, (_, i) => `p_${run}_${i}`);
  await db.campaign.update({
    where: { id: base.campaign.id },
    data: { committedCount: singles + opts.seats, pledgeCount: singles + opts.seats },
  });
  return { ...base, holder, groupId, seatIds };
}

const seatsOf = (ids: string[]) =>
  db.pledge.findMany({ where: { id: { in: ids } }, orderBy: { guestSlot: "asc" } });

describe("a paid group is charged once for its seats", () => {
  it("a group of 3 is one provider charge of 3 × price at the tip, and every seat is paid", async () => {
    const { campaign, pledges, groupId, seatIds } = await eventWithGroup({ singles: 2, seats: 3 });
    await service.runCharging(campaign.id, { concurrency: 2 });

    // one charge at the provider, under the holder's seat, for 3 × price; none for the guest seats
    const charges = fake.state.chargesByPledge.get(groupId) ?? [];
    expect(charges.map((c) => [c.status, c.amount])).toEqual([["succeeded", 3 * PRICE]]);
    for (const id of seatIds.slice(1)) expect(fake.chargeCount(id)).toBe(0);
    for (const p of pledges) expect(fake.chargeCount(p.id)).toBe(1);

    // every seat paid, its share its own; the payment's id on the holder's seat
    const seats = await seatsOf(seatIds);
    expect(seats.every((s) => s.charged && s.chargeStatus === "succeeded" && s.amountCents === PRICE)).toBe(
      true,
    );
    expect(seats[0]!.paymentIntentId).toMatch(/^pi_/);
    // one money row for the group, covering its 3 seats
    const rows = await db.moneyMovement.findMany({
      where: { campaignId: campaign.id, kind: "charge", pledgeId: { in: seatIds } },
      include: { seats: true },
    });
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ state: "succeeded", amountCents: BigInt(3 * PRICE), pledgeId: groupId });
    expect(rows[0]!.seats.map((s) => [s.pledgeId, Number(s.amountCents)]).sort()).toEqual(
      seatIds.map((id) => [id, PRICE]).sort(),
    );

    // every reader sees each seat as paid with its share: the pledge money and the payout ledger
    const money = await queries.refundState(seatIds);
    for (const id of seatIds) expect(money.get(id)).toMatchObject({ chargedCents: PRICE, refund: "none" });
    const l = await ledger.ledgerOf(db, campaign.id);
    expect(l).toMatchObject({ collectedCents: 5 * PRICE, chargeCount: 5, keptCount: 5 });
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(c).toMatchObject({ status: "charged", totalCharged: 5, totalChargedCents: BigInt(5 * PRICE) });
    expect(await queries.heldCents(campaign.id)).toBe(5 * PRICE);

    // a second run changes nothing
    await service.runCharging(campaign.id);
    expect(fake.chargeCount(groupId)).toBe(1);
  });

  it("seats dropped before the tip are not charged: the rest of the group pays for itself", async () => {
    const { campaign, groupId, seatIds } = await eventWithGroup({ seats: 4 });
    // the holder dropped a guest before the tip (a withdrawn seat: lib/pledges/seats)
    await db.pledge.update({ where: { id: seatIds[3]! }, data: { withdrawnAt: new Date() } });
    await service.runCharging(campaign.id);
    expect((fake.state.chargesByPledge.get(groupId) ?? []).map((c) => c.amount)).toEqual([3 * PRICE]);
    const dropped = await db.pledge.findUniqueOrThrow({ where: { id: seatIds[3]! } });
    expect(dropped).toMatchObject({ charged: false, chargeStatus: "none" });
    const covered = await db.moneyMovementPledge.findMany({ where: { pledgeId: { in: seatIds } } });
    expect(covered.map((r) => r.pledgeId).sort()).toEqual(seatIds.slice(0, 3).sort());
  });

  it("a stale claim of a group is re-driven with the same key for the same seats: charged once", async () => {
    const { campaign, groupId, seatIds } = await eventWithGroup({ seats: 3, first: true });
    // a run that died after claiming the group and sending its charge: a claim of one picks the
    // holder's seat, and its claimable mates come with it as one unit
    const ledgerState = await import("@/lib/ledger/pledge-state");
    const claimed = await ledgerState.claimBatch(campaign.id, 0, new Date(Date.now() + 1000), false, 1);
    expect(claimed.map((c) => [c.id, c.chargeUnitId]).sort()).toEqual(
      seatIds.map((id) => [id, groupId]).sort(),
    );
    const gateway = (await import("@/lib/payments/gateway")).getGateway();
    const lead = claimed.find((c) => c.id === groupId)!;
    const first = await gateway.charge({
      pledgeId: groupId,
      campaignId: campaign.id,
      userId: lead.userId,
      paymentMethodId: lead.paymentMethodId,
      amountCents: 3 * PRICE,
      attempt: lead.chargeAttempts,
      customerId: lead.customerId,
    });
    expect(first.status).toBe("succeeded");
    // the sweeper's run re-drives the stale claim: the provider replays the first answer
    await service.runCharging(campaign.id, { staleAfterMs: 0 });
    expect(fake.chargeCount(groupId)).toBe(1);
    const seats = await seatsOf(seatIds);
    expect(seats.every((s) => s.charged && s.chargeAttempts === 1)).toBe(true);
    const rows = await db.moneyMovement.findMany({ where: { pledgeId: groupId, kind: "charge" } });
    expect(rows.map((r) => [r.state, Number(r.amountCents)])).toEqual([["succeeded", 3 * PRICE]]);
  });

  it("a failed group payment fails every seat once, with one money row and one email", async () => {
    const { campaign, groupId, seatIds, holder } = await eventWithGroup({
      seats: 3,
      behavior: "generic_decline",
    });
    await service.runCharging(campaign.id);
    const seats = await seatsOf(seatIds);
    expect(seats.every((s) => s.chargeStatus === "failed" && !s.charged && s.paymentFailedAt)).toBe(true);
    expect(new Set(seats.map((s) => s.paymentFailedAt!.getTime())).size).toBe(1);
    const rows = await db.moneyMovement.findMany({ where: { pledgeId: { in: seatIds } } });
    expect(rows.map((r) => [r.pledgeId, r.state, Number(r.amountCents)])).toEqual([
      [groupId, "failed", 3 * PRICE],
    ]);
    const emails = await db.emailOutbox.findMany({ where: { toEmail: holder.email } });
    expect(emails.filter((e) => e.dedupeKey.startsWith("charge-failed:"))).toHaveLength(1);
  });
});
