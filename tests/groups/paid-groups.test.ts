import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { fundedPaidCampaign, stripeBackers, type StripeBacker } from "@/tests/charging/helpers";
import { createCampaign } from "@/tests/helpers/factories";
import { nameAndClaim, person } from "@/tests/helpers/friends";
import { getEditView } from "@/lib/campaigns/edit-view";
import { updateCampaign } from "@/lib/campaigns/edit";
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
    const summary = await service.runCharging(campaign.id, { concurrency: 2 });
    // check-and-charge's summary: every seat charged, each with the group's payment
    expect(summary.totalCharged).toBe(5);
    const groupPayment = summary.successful.find((r) => r.pledgeId === groupId)!.paymentIntentId;
    expect(
      summary.successful.filter((r) => seatIds.includes(r.pledgeId)).map((r) => r.paymentIntentId),
    ).toEqual([groupPayment, groupPayment, groupPayment]);

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

  it("a seat a named friend claimed is paid with the group, on the holder's card", async () => {
    const { campaign, groupId, seatIds, holder } = await eventWithGroup({ seats: 3 });
    // the friend claimed guest seat 2 (lib/pledges/friends claimSeat: their own seat, slot 0, same group)
    const friend = await db.user.create({
      data: { email: `friend-${Date.now().toString(36)}${++seq}@example.test` },
    });
    await db.pledge.update({ where: { id: seatIds[2]! }, data: { userId: friend.id, guestSlot: 0 } });
    await service.runCharging(campaign.id);
    const charges = fake.state.chargesByPledge.get(groupId) ?? [];
    expect(charges.map((c) => [c.status, c.amount])).toEqual([["succeeded", 3 * PRICE]]);
    const seats = await db.pledge.findMany({ where: { id: { in: seatIds } } });
    expect(seats.every((s) => s.charged && s.chargeStatus === "succeeded")).toBe(true);
    const intent = fake.state.requests.filter((r) => r.path === "/v1/payment_intents").at(-1)!;
    expect(intent.body.customer).toBe(holder.stripeCustomerId);
    // "Event Confirmed!": the holder was charged for the 2 seats still theirs and their friend's, once;
    // the friend was charged nothing (the email job derives them from the charged seats)
    const { queueDerivedEmails } = await import("@/lib/derived-emails");
    await queueDerivedEmails();
    const confirmed = await db.emailOutbox.findMany({
      where: { dedupeKey: { startsWith: `confirmed:${campaign.id}:` } },
    });
    const textTo = (email: string) => confirmed.filter((m) => m.toEmail === email).map((m) => m.text);
    expect(textTo(holder.email)).toHaveLength(1);
    expect(textTo(holder.email)[0]).toContain("You were charged $60.00 for 3 people.");
    expect(textTo(friend.email)).toHaveLength(1);
    expect(textTo(friend.email)[0]).toContain("The person who invited you paid for your seat");
    expect(textTo(friend.email)[0]).not.toContain("You were charged");
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

describe("a failed group payment: one recovery window for its seats", () => {
  it("the holder pays once for every seat; the charge covers them all", async () => {
    const { campaign, groupId, seatIds, holder } = await eventWithGroup({
      seats: 3,
      behavior: "generic_decline",
    });
    await service.runCharging(campaign.id);
    expect((await seatsOf(seatIds)).every((s) => s.chargeStatus === "failed")).toBe(true);
    const recovery = await import("@/lib/charging/recovery");
    const card = fake.addPaymentMethod(holder.stripeCustomerId!, "ok");
    const viewer = { id: holder.id, email: holder.email, isAdmin: false };
    // one payment to attend to, not one per seat
    const { paymentAttention } = await import("@/lib/pledges/attention");
    const attention = (await paymentAttention({ ...viewer, name: null })).filter(
      (a) => a.campaignId === campaign.id,
    );
    expect(attention.map((a) => a.payUrl)).toEqual([`/pledges/${groupId}/pay`]);
    // My commitments' recovery card says the group's amount, as the pay page asks it
    const { getMyCommitment } = await import("@/lib/pledges/mine");
    const mine = await getMyCommitment({ ...viewer, name: null }, { campaignId: campaign.id });
    expect(mine?.recovery?.banner).toMatch(/^Your \$60\.00 payment failed/);
    // the pay page asks for the group's one payment
    const { getPledgeForPayment } = await import("@/lib/charging/queries");
    expect((await getPledgeForPayment(seatIds[1]!, holder.id))?.amountCents).toBe(3 * PRICE);
    // the pay link of any seat pays the group's one payment
    expect(
      await recovery.payPledgeOnSession(viewer, { pledgeId: seatIds[2]!, paymentMethodId: card }),
    ).toEqual({
      status: "succeeded",
    });
    const seats = await seatsOf(seatIds);
    expect(seats.every((s) => s.charged && s.chargeStatus === "succeeded")).toBe(true);
    expect(
      (fake.state.chargesByPledge.get(groupId) ?? [])
        .map((c) => [c.status, c.amount])
        .filter(([st]) => st === "succeeded"),
    ).toEqual([["succeeded", 3 * PRICE]]);
    const paid = await db.moneyMovement.findMany({
      where: { pledgeId: groupId, kind: "charge", state: "succeeded" },
      include: { seats: true },
    });
    expect(paid).toHaveLength(1);
    expect(paid[0]!.seats).toHaveLength(3);
    // paying again is refused and charges nothing
    await expect(
      recovery.payPledgeOnSession(viewer, { pledgeId: groupId, paymentMethodId: card }),
    ).rejects.toThrow(/already been paid/);
    expect(await queries.heldCents(campaign.id)).toBe(4 * PRICE);
  });

  it("seats not paid in time drop together: one email to the holder, every place released", async () => {
    const { campaign, seatIds, holder } = await eventWithGroup({ seats: 3, behavior: "generic_decline" });
    await service.runCharging(campaign.id);
    const pass = await import("@/lib/charging/recovery-pass");
    const later = new Date(Date.now() + 60 * 86_400_000);
    const counts = await pass.runPaymentRecovery({ now: later });
    expect(counts.dropped).toBeGreaterThanOrEqual(1); // (other tests' unpaid groups too: the pass is global)
    const seats = await seatsOf(seatIds);
    expect(seats.map((s) => s.standing)).toEqual(["dropped", "dropped", "dropped"]);
    expect(seats.every((s) => !s.charged)).toBe(true);
    const emails = await db.emailOutbox.findMany({ where: { toEmail: holder.email } });
    expect(emails.filter((e) => e.dedupeKey.startsWith("charge-dropped:"))).toHaveLength(1);
    expect(emails.filter((e) => e.dedupeKey.startsWith("charge-failed:"))).toHaveLength(1);
    expect(emails.find((e) => e.dedupeKey.startsWith("charge-failed:"))!.subject).toContain("$60.00");
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(c.committedCount).toBe(1);
    expect(await queries.heldCents(campaign.id)).toBe(PRICE);
  });
});

describe("the provider's word on a group's payment (webhook)", () => {
  it("a payment that needed the bank's authentication succeeds later: every seat of it is paid, once", async () => {
    const { campaign, groupId, seatIds } = await eventWithGroup({
      seats: 3,
      behavior: "authentication_required",
    });
    await service.runCharging(campaign.id);
    const before = await seatsOf(seatIds);
    expect(before.map((s) => s.chargeStatus)).toEqual([
      "requires_action",
      "requires_action",
      "requires_action",
    ]);
    const lead = before[0]!;
    const { handleIntentEvent } = await import("@/lib/charging/on-intent");
    const event = {
      id: `evt_group_${seq++}_${Date.now().toString(36)}`,
      object: "event",
      type: "payment_intent.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: lead.paymentIntentId,
          object: "payment_intent",
          amount: 3 * PRICE,
          created: Math.floor(Date.now() / 1000),
          status: "succeeded",
          metadata: { pledgeId: groupId, attempt: String(lead.chargeAttempts) },
        },
      },
    } as unknown as Parameters<typeof handleIntentEvent>[0];
    expect(await handleIntentEvent(event)).toBe(true);
    expect(await handleIntentEvent(event)).toBe(false); // a second delivery changes nothing
    const seats = await seatsOf(seatIds);
    expect(seats.every((s) => s.charged && s.chargeStatus === "succeeded" && s.amountCents === PRICE)).toBe(
      true,
    );
    const rows = await db.moneyMovement.findMany({
      where: { pledgeId: groupId, kind: "charge", state: "succeeded" },
      include: { seats: true },
    });
    expect(rows.map((r) => [Number(r.amountCents), r.seats.length])).toEqual([[3 * PRICE, 3]]);
    const money = await queries.refundState(seatIds);
    expect(seatIds.map((id) => money.get(id)!.chargedCents)).toEqual([PRICE, PRICE, PRICE]);
  });
});

describe("paid groups through the commit path", () => {
  let pledgeService: typeof import("@/lib/pledges/service");
  let giveUp: typeof import("@/lib/pledges/give-up");
  let cancellation: typeof import("@/lib/cancellation/service");
  let refunds: typeof import("@/lib/ledger/refunds");
  let mine: typeof import("@/lib/pledges/mine");
  beforeAll(async () => {
    useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000", RATE_LIMIT_DISABLED: "true" });
    pledgeService = await import("@/lib/pledges/service");
    giveUp = await import("@/lib/pledges/give-up");
    cancellation = await import("@/lib/cancellation/service");
    refunds = await import("@/lib/ledger/refunds");
    mine = await import("@/lib/pledges/mine");
  });
  const groupOf = (campaignId: string, userId: string) =>
    db.pledge.findMany({ where: { campaignId, userId }, orderBy: { guestSlot: "asc" } });
  const succeededAt = (pledgeId: string) =>
    (fake.state.chargesByPledge.get(pledgeId) ?? [])
      .filter((c) => c.status === "succeeded")
      .map((c) => c.amount);

  it("a group of 3 that tips the event pays once, 3 × price, on-session; every seat is in and paid", async () => {
    const c = await createCampaign({ goal: 3, ticketPriceCents: PRICE, maxSeats: 4 });
    const [ada] = await stripeBackers(fake, 1);
    const r = await pledgeService.commitToCampaign(ada!, {
      campaignId: c.id,
      paymentMethodId: ada!.card,
      seats: 3,
    });
    expect(r).toMatchObject({ crossed: true, ownPayment: { status: "succeeded", amountCents: 3 * PRICE } });
    expect(succeededAt(r.pledgeId)).toEqual([3 * PRICE]);
    const seats = await groupOf(c.id, ada!.id);
    expect(seats).toHaveLength(3);
    expect(seats.every((s) => s.charged && s.chargeStatus === "succeeded" && s.amountCents === PRICE)).toBe(
      true,
    );
    await service.runCharging(c.id);
    expect(fake.chargeCount(r.pledgeId)).toBe(1);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).status).toBe("charged");
  });

  it("waiting groups: one that refused a partial promotion keeps its place; the next that fits is promoted whole and charged once; one that agreed is promoted in part and charged once for those seats", async () => {
    const organizer = await db.user.create({
      data: { email: `org-${Date.now().toString(36)}${++seq}@example.test` },
    });
    const org = { id: organizer.id, email: organizer.email, name: null, isAdmin: false };
    const c = await createCampaign({
      goal: 1,
      capacity: 3,
      ticketPriceCents: PRICE,
      maxSeats: 4,
      creatorId: organizer.id,
    });
    // the organizer raises the capacity through the edit form: the places it opens go to the line
    const raiseCapacity = async (capacity: number) => {
      const view = await getEditView(org, c.id);
      await updateCampaign(org, c.id, { ...view!.values, capacity: String(capacity) });
    };
    const [first, single, whole, duo, trio] = await stripeBackers(fake, 5);
    const commit = (who: StripeBacker, seats: number, partialOk = false) =>
      pledgeService.commitToCampaign(who, { campaignId: c.id, paymentMethodId: who.card, seats, partialOk });
    await commit(first!, 1); // tips the event
    await commit(single!, 2); // full
    const w = await commit(whole!, 3); // waits whole, no partial
    const d = await commit(duo!, 2); // waits whole, no partial
    const t = await commit(trio!, 3, true); // waits, a partial promotion agreed
    expect([w.waitlisted, d.waitlisted, t.waitlisted]).toEqual([true, true, true]);
    // the join email says what the group consents to: each person's payment, and all of them
    const joined = await db.emailOutbox.findFirstOrThrow({
      where: { dedupeKey: `waitlist-joined:${t.pledgeId}` },
    });
    expect(joined.text).toContain(
      `is charged $20.00 for each person of your group who gets one ($60.00 for all 3)`,
    );
    await service.runCharging(c.id);

    // two places: the group of 3 does not fit and keeps its place; the group of 2 is promoted whole
    // and charged once for its 2 seats
    await raiseCapacity(5);
    await service.runCharging(c.id);
    expect(succeededAt(d.pledgeId)).toEqual([2 * PRICE]);
    expect((await groupOf(c.id, duo!.id)).every((s) => s.standing === "in" && s.charged)).toBe(true);
    const waiting = async () => groupOf(c.id, whole!.id);
    expect((await waiting()).every((s) => s.standing === "waiting" && s.chargeStatus === "none")).toBe(true);

    // two more: the group of 3 still does not fit; the group that agreed takes both, its holder's
    // seat first, charged once for those 2 seats; its third seat and the group of 3 wait
    await raiseCapacity(7);
    await service.runCharging(c.id);
    const trioSeats = await groupOf(c.id, trio!.id);
    expect(trioSeats.map((s) => s.standing)).toEqual(["in", "in", "waiting"]);
    expect(succeededAt(t.pledgeId)).toEqual([2 * PRICE]);
    expect(trioSeats.slice(1).every((s) => fake.chargeCount(s.id) === 0)).toBe(true);
    const cover = await db.moneyMovementPledge.findMany({
      where: { pledgeId: { in: trioSeats.map((s) => s.id) } },
    });
    expect(cover.map((m) => m.pledgeId).sort()).toEqual(
      trioSeats
        .slice(0, 2)
        .map((s) => s.id)
        .sort(),
    );
    expect((await waiting()).every((s) => s.standing === "waiting" && s.chargeStatus === "none")).toBe(true);
    expect(fake.chargeCount(w.pledgeId)).toBe(0);
  });

  it("a seat given up while the group's payment waits for the bank is paid when that payment succeeds, and refunded its share once", async () => {
    const c = await createCampaign({ goal: 3, capacity: 3, ticketPriceCents: PRICE, maxSeats: 4 });
    const [ada, bo] = await stripeBackers(fake, 2, (i) => (i === 0 ? "authentication_required" : "ok"));
    const r = await pledgeService.commitToCampaign(ada!, {
      campaignId: c.id,
      paymentMethodId: ada!.card,
      seats: 3,
    });
    const b = await pledgeService.commitToCampaign(bo!, { campaignId: c.id, paymentMethodId: bo!.card });
    expect(b.waitlisted).toBe(true);
    await service.runCharging(c.id);
    let seats = await groupOf(c.id, ada!.id);
    expect(seats.map((s) => s.chargeStatus)).toEqual([
      "requires_action",
      "requires_action",
      "requires_action",
    ]);
    const lead = seats[0]!;
    // while the bank asks, Ada gives a guest seat up: Bo takes it and pays
    await giveUp.giveUpPlace(ada!, { campaignId: c.id });
    await service.runCharging(c.id);
    expect(succeededAt(b.pledgeId)).toEqual([PRICE]);
    // the bank says yes to the payment of 3 seats: all 3 are paid, and the one given up gets its share back
    const { handleIntentEvent } = await import("@/lib/charging/on-intent");
    const succeeded = (amount: number, attempt: number, id = lead.paymentIntentId) =>
      ({
        id: `evt_group_${seq++}_${Date.now().toString(36)}`,
        object: "event",
        type: "payment_intent.succeeded",
        created: Math.floor(Date.now() / 1000),
        data: {
          object: {
            id,
            object: "payment_intent",
            amount,
            created: Math.floor(Date.now() / 1000),
            status: "succeeded",
            metadata: { pledgeId: r.pledgeId, attempt: String(attempt) },
          },
        },
      }) as unknown as Parameters<typeof handleIntentEvent>[0];
    fake.state.paymentIntents.get(lead.paymentIntentId!)!.status = "succeeded"; // the bank said yes
    expect(await handleIntentEvent(succeeded(3 * PRICE, lead.chargeAttempts))).toBe(true);
    seats = await groupOf(c.id, ada!.id);
    expect(seats.map((s) => [s.chargeStatus, s.amountCents])).toEqual([
      ["succeeded", PRICE],
      ["succeeded", PRICE],
      ["succeeded", PRICE],
    ]);
    await refunds.refundOwedPledges(c.id);
    await refunds.refundOwedPledges(c.id);
    const given = seats.find((s) => s.gaveUpAt)!;
    const refundRows = await db.moneyMovement.findMany({ where: { campaignId: c.id, kind: "refund" } });
    expect(refundRows.map((m) => [m.pledgeId, m.state, Number(m.amountCents)])).toEqual([
      [given.id, "succeeded", PRICE],
    ]);
    const l = await ledger.ledgerOf(db, c.id);
    expect(l).toMatchObject({ collectedCents: 4 * PRICE, refundedCents: PRICE });
  });

  it("a payment for a group's seats still in covers only them: a seat given up before it stays unpaid", async () => {
    const c = await createCampaign({ goal: 3, capacity: 3, ticketPriceCents: PRICE, maxSeats: 4 });
    const [ada, bo] = await stripeBackers(fake, 2, (i) => (i === 0 ? "authentication_required" : "ok"));
    const r = await pledgeService.commitToCampaign(ada!, {
      campaignId: c.id,
      paymentMethodId: ada!.card,
      seats: 3,
    });
    const b = await pledgeService.commitToCampaign(bo!, { campaignId: c.id, paymentMethodId: bo!.card });
    await service.runCharging(c.id);
    await giveUp.giveUpPlace(ada!, { campaignId: c.id });
    await service.runCharging(c.id);
    expect(succeededAt(b.pledgeId)).toEqual([PRICE]);
    // Ada pays the group's failed payment herself with another card: the seats still in, in one payment
    const recovery = await import("@/lib/charging/recovery");
    const card = fake.addPaymentMethod(`cus_${ada!.id.slice(2)}`, "ok");
    const paid = await recovery.payPledgeOnSession(ada!, { pledgeId: r.pledgeId, paymentMethodId: card });
    expect(paid.status).toBe("succeeded");
    expect(succeededAt(r.pledgeId)).toEqual([2 * PRICE]);
    const seats = await groupOf(c.id, ada!.id);
    const given = seats.find((s) => s.gaveUpAt)!;
    expect(seats.filter((s) => s.chargeStatus === "succeeded").map((s) => s.id)).toEqual(
      seats.filter((s) => !s.gaveUpAt).map((s) => s.id),
    );
    expect(given.chargeStatus).toBe("requires_action");
    await refunds.refundOwedPledges(c.id);
    expect(await db.moneyMovement.count({ where: { campaignId: c.id, kind: "refund" } })).toBe(0);
    expect(await ledger.ledgerOf(db, c.id)).toMatchObject({ collectedCents: 3 * PRICE, refundedCents: 0 });
  });

  it("a place change after the tip: the holder withdraws the group in the window, every seat refunded its share once, the whole payment back", async () => {
    const organizer = await db.user.create({
      data: { email: `org-${Date.now().toString(36)}${++seq}@example.test` },
    });
    const org = { id: organizer.id, email: organizer.email, name: null, isAdmin: false };
    const c = await createCampaign({
      goal: 3,
      ticketPriceCents: PRICE,
      maxSeats: 4,
      creatorId: organizer.id,
      startsAt: new Date(Date.now() + 20 * 86_400_000),
      venue: "Old Hall",
    });
    const [ada] = await stripeBackers(fake, 1);
    const r = await pledgeService.commitToCampaign(ada!, {
      campaignId: c.id,
      paymentMethodId: ada!.card,
      seats: 3,
    });
    expect(succeededAt(r.pledgeId)).toEqual([3 * PRICE]);
    const view = await getEditView(org, c.id);
    await updateCampaign(org, c.id, { ...view!.values, venue: "New Hall" });
    const { withdrawCommitment } = await import("@/lib/pledges/withdraw");
    const out = await withdrawCommitment(ada!, { campaignId: c.id });
    expect(out.refundCents).toBe(3 * PRICE);
    await refunds.refundOwedPledges(c.id);
    await refunds.refundOwedPledges(c.id);
    const seats = await groupOf(c.id, ada!.id);
    expect(seats.map((s) => [s.standing, s.chargeStatus])).toEqual([
      ["withdrawn", "refunded"],
      ["withdrawn", "refunded"],
      ["withdrawn", "refunded"],
    ]);
    const atStripe = fake.state.refunds.filter((x) => x.paymentIntent === seats[0]!.paymentIntentId);
    expect(atStripe.map((x) => x.amount)).toEqual([PRICE, PRICE, PRICE]);
    expect(await queries.heldCents(c.id)).toBe(0);
    expect(await ledger.ledgerOf(db, c.id)).toMatchObject({
      collectedCents: 3 * PRICE,
      refundedCents: 3 * PRICE,
    });
  });

  it("a seat given up after the tip is refunded its share of the group's payment, once; a cancel refunds every seat once", async () => {
    const c = await createCampaign({ goal: 3, capacity: 3, ticketPriceCents: PRICE, maxSeats: 4 });
    const [ada, bo] = await stripeBackers(fake, 2);
    const r = await pledgeService.commitToCampaign(ada!, {
      campaignId: c.id,
      paymentMethodId: ada!.card,
      seats: 3,
    });
    expect(succeededAt(r.pledgeId)).toEqual([3 * PRICE]);
    const b = await pledgeService.commitToCampaign(bo!, { campaignId: c.id, paymentMethodId: bo!.card });
    expect(b.waitlisted).toBe(true);
    // Ada gives a guest seat up: Bo takes it and pays; Ada's seat is refunded its share, once
    await giveUp.giveUpPlace(ada!, { campaignId: c.id });
    await service.runCharging(c.id);
    expect(succeededAt(b.pledgeId)).toEqual([PRICE]);
    await refunds.refundOwedPledges(c.id);
    await refunds.refundOwedPledges(c.id);
    const seats = await groupOf(c.id, ada!.id);
    const given = seats.find((s) => s.gaveUpAt)!;
    expect(given.guestSlot).toBe(2);
    const refundRows = () =>
      db.moneyMovement.findMany({ where: { campaignId: c.id, kind: "refund" }, orderBy: { id: "asc" } });
    expect((await refundRows()).map((m) => [m.pledgeId, m.state, Number(m.amountCents)])).toEqual([
      [given.id, "succeeded", PRICE],
    ]);
    const money = await queries.refundState(seats.map((s) => s.id));
    expect(seats.map((s) => money.get(s.id)!.refund)).toEqual(["none", "none", "refunded"]);
    const refundsAtStripe = () =>
      fake.state.requests.filter(
        (q) => q.path === "/v1/refunds" && JSON.stringify(q.body).includes(r.pledgeId),
      );
    expect(refundsAtStripe().every((q) => Number(q.body.amount) === PRICE)).toBe(true);

    // the event is cancelled: every seat still paid is refunded its share, once, and Bo in full
    const organizer = await db.user.findUniqueOrThrow({ where: { id: c.creatorId } });
    await cancellation.cancelCampaign({ ...organizer, isAdmin: false }, { campaignId: c.id });
    await refunds.refundOwedPledges(c.id);
    await refunds.refundOwedPledges(c.id);
    const rows = await refundRows();
    expect(rows.every((m) => m.state === "succeeded" && Number(m.amountCents) === PRICE)).toBe(true);
    expect(rows.map((m) => m.pledgeId).sort()).toEqual([...seats.map((s) => s.id), b.pledgeId].sort());
    expect(await queries.heldCents(c.id)).toBe(0);
    const l = await ledger.ledgerOf(db, c.id);
    expect(l).toMatchObject({
      collectedCents: 4 * PRICE,
      refundedCents: 4 * PRICE,
      chargeCount: 4,
      refundCount: 4,
    });
  });

  it("a cancel tells the payer once: ONE refund email for the group's total, and a named friend's cancellation says the holder paid", async () => {
    const c = await createCampaign({ goal: 3, ticketPriceCents: PRICE, maxSeats: 4 });
    const [ada] = await stripeBackers(fake, 1);
    const r = await pledgeService.commitToCampaign(ada!, {
      campaignId: c.id,
      paymentMethodId: ada!.card,
      seats: 3,
    });
    expect(succeededAt(r.pledgeId)).toEqual([3 * PRICE]);
    const sam = await person("Sam Friend");
    await nameAndClaim(ada!, c.id, 1, "sam.paid@example.test", sam);

    const organizer = await db.user.findUniqueOrThrow({ where: { id: c.creatorId } });
    await cancellation.cancelCampaign({ ...organizer, isAdmin: false }, { campaignId: c.id });
    await refunds.refundOwedPledges(c.id);
    await refunds.refundOwedPledges(c.id);
    // still a refund per seat at the provider, each its share, once
    const rows = await db.moneyMovement.findMany({ where: { campaignId: c.id, kind: "refund" } });
    expect(rows.map((m) => [m.state, Number(m.amountCents)])).toEqual([
      ["succeeded", PRICE],
      ["succeeded", PRICE],
      ["succeeded", PRICE],
    ]);

    const mail = (toEmail: string) =>
      db.emailOutbox.findMany({ where: { toEmail }, select: { dedupeKey: true, subject: true, text: true } });
    const refunded = (m: { subject: string }) => m.subject.startsWith("Refunded");
    // the holder: one cancellation saying the group's payment, one refund email for the group's total
    const adas = await mail(ada!.email);
    expect(adas.filter(refunded)).toHaveLength(1);
    const [refund] = adas.filter(refunded);
    expect(refund!.subject).toBe(`Refunded: $60.00 for "${c.title}"`);
    expect(refund!.text).toContain("We refunded $60.00 for 3 people");
    expect(refund!.text).toContain("was cancelled");
    const adaCancel = adas.filter((m) => m.subject === `"${c.title}" was cancelled`);
    expect(adaCancel).toHaveLength(1);
    expect(adaCancel[0]!.text).toContain("Your payment of $60.00 for 3 people is being refunded");
    // the friend: the cancellation, saying the holder paid; no money of theirs refunded
    const sams = await mail(sam.email);
    expect(sams.filter(refunded)).toHaveLength(0);
    const samCancel = sams.filter((m) => m.subject === `"${c.title}" was cancelled`);
    expect(samCancel).toHaveLength(1);
    expect(samCancel[0]!.text).toContain("The person who invited you paid for your seat");
    expect(samCancel[0]!.text).not.toMatch(/your payment|refunded to your card/i);
  });

  it("My commitments: the holder's entry says the group's amount; a named friend's seat says the holder pays", async () => {
    const c = await createCampaign({ goal: 3, ticketPriceCents: PRICE, maxSeats: 4 });
    const [ada] = await stripeBackers(fake, 1);
    await pledgeService.commitToCampaign(ada!, { campaignId: c.id, paymentMethodId: ada!.card, seats: 3 });
    const sam = await person("Sam Friend");
    await nameAndClaim(ada!, c.id, 1, "sam.mine@example.test", sam);
    const entry = async (who: { id: string; email: string }) =>
      (await mine.listMyCommitments({ ...who, name: null, isAdmin: false })).find(
        (m) => m.campaignId === c.id,
      )!;

    // Ada pays for her seat, her guest's and the seat Sam claimed: one payment of 3 × price
    const hers = await entry(ada!);
    expect(hers.amountText).toBe("3 people × $20.00 = $60.00");
    expect(hers.stateText).toMatch(/^Charged \$60\.00 on /);
    // Sam owes nothing: the person who invited them pays
    const his = await entry(sam);
    expect(his.amountText).toBe("Paid by the person who invited you");
    expect(his.amountCents).toBe(0);
    expect(his.stateText).not.toContain("$");
    expect(his.payUrl).toBeNull();
    expect([his.card, his.canChangeCard]).toEqual([null, false]);
    expect(hers.card).not.toBeNull();
  });

  it("a named friend's seat given up and refunded: the refund email goes to the holder who paid, none to the friend", async () => {
    const c = await createCampaign({ goal: 3, capacity: 3, ticketPriceCents: PRICE, maxSeats: 4 });
    const [ada, bo] = await stripeBackers(fake, 2);
    await pledgeService.commitToCampaign(ada!, { campaignId: c.id, paymentMethodId: ada!.card, seats: 3 });
    const sam = await person("Sam Giver");
    await nameAndClaim(ada!, c.id, 1, "sam.gives@example.test", sam);
    const b = await pledgeService.commitToCampaign(bo!, { campaignId: c.id, paymentMethodId: bo!.card });
    expect(b.waitlisted).toBe(true);
    await giveUp.giveUpPlace(sam, { campaignId: c.id });
    await service.runCharging(c.id);
    expect(succeededAt(b.pledgeId)).toEqual([PRICE]);
    await refunds.refundOwedPledges(c.id);
    await refunds.refundOwedPledges(c.id);

    const refundMails = (toEmail: string) =>
      db.emailOutbox.findMany({
        where: { toEmail, subject: { startsWith: "Refunded" } },
        select: { text: true },
      });
    expect(await refundMails(sam.email)).toHaveLength(0);
    const adas = await refundMails(ada!.email);
    expect(adas).toHaveLength(1);
    expect(adas[0]!.text).toContain(`We refunded $20.00 to your`);
    expect(adas[0]!.text).toContain(`the seat you paid for at "${c.title}" was given up`);
  });

  it("a cancel's group refund email is queued once when two sweeps refund the group's seats at the same time", async () => {
    const c = await createCampaign({ goal: 4, ticketPriceCents: PRICE, maxSeats: 4 });
    const [ada] = await stripeBackers(fake, 1);
    await pledgeService.commitToCampaign(ada!, { campaignId: c.id, paymentMethodId: ada!.card, seats: 4 });
    const { getGateway } = await import("@/lib/payments/gateway");
    const down = Object.assign(Object.create(getGateway()), {
      refund: async () => {
        throw new Error("the provider is down");
      },
    });
    const organizer = await db.user.findUniqueOrThrow({ where: { id: c.creatorId } });
    await cancellation.cancelCampaign(
      { ...organizer, isAdmin: false },
      { campaignId: c.id },
      { gateway: down },
    );
    expect(await db.pledge.count({ where: { campaignId: c.id, refundId: { not: null } } })).toBe(0);
    await Promise.all([refunds.refundOwedPledges(c.id), refunds.refundOwedPledges(c.id)]);
    expect(await db.pledge.count({ where: { campaignId: c.id, refundId: { not: null } } })).toBe(4);
    const mails = await db.emailOutbox.findMany({
      where: { toEmail: ada!.email, subject: { startsWith: "Refunded" } },
      select: { text: true },
    });
    expect(mails).toHaveLength(1);
    expect(mails[0]!.text).toContain("We refunded $80.00 for 4 people");
  });
});
