import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type CardBehavior, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { fundedPaidCampaign, stripeBackers } from "@/tests/charging/helpers";
import { createCampaign } from "@/tests/helpers/factories";
import { deliverStripeEvent } from "@/tests/fake-stripe/webhook";

/*
 * Issue 37 × issue 36: a group on an event with a show-up deposit (docs/decisions/group-commitments.md,
 * show-up-deposit.md). The group pays ONE charge of seats × (price + deposit) on the holder's card; the
 * payment carries one deposit row whose MoneyMovementPledge rows give each seat its deposit, so each
 * seat's deposit is refunded (a partial refund of the group's payment, once) at its own check-in, or
 * kept after the grace — against the fake Stripe.
 */
let fake: FakeStripe;
let charging: typeof import("@/lib/charging/service");
let ledger: typeof import("@/lib/payouts/ledger");
let deposits: typeof import("@/lib/ledger/deposits");
let checkInLib: typeof import("@/lib/tickets/check-in");
let tickets: typeof import("@/lib/tickets/service");
let excuse: typeof import("@/lib/pledges/excuse");
let cancellation: typeof import("@/lib/cancellation/service");
let refunds: typeof import("@/lib/ledger/refunds");
let surfaces: typeof import("@/lib/pledges/deposits");
let queries: typeof import("@/lib/ledger/queries");
let webhook: (req: Request) => Promise<Response>;

const BPS = 250;
const FIXED = 30;
const DEPOSIT = 1000;
const HOUR = 3_600_000;

beforeAll(async () => {
  fake = await startFakeStripe({ latencyMs: 2 });
  useFakeStripeEnv(fake, {
    STRIPE_RATE_LIMIT: "1000",
    RATE_LIMIT_DISABLED: "true",
    PLATFORM_FEE_BPS: String(BPS),
    PLATFORM_FEE_FIXED_CENTS: String(FIXED),
    PAYOUT_HOLD_DAYS: "7",
  });
  charging = await import("@/lib/charging/service");
  ledger = await import("@/lib/payouts/ledger");
  deposits = await import("@/lib/ledger/deposits");
  checkInLib = await import("@/lib/tickets/check-in");
  tickets = await import("@/lib/tickets/service");
  excuse = await import("@/lib/pledges/excuse");
  cancellation = await import("@/lib/cancellation/service");
  refunds = await import("@/lib/ledger/refunds");
  surfaces = await import("@/lib/pledges/deposits");
  queries = await import("@/lib/ledger/queries");
  ({ POST: webhook } = await import("@/app/api/stripe/webhook/route"));
});
afterAll(async () => {
  await fake.close();
});

const actorOf = (u: { id: string; email: string }) => ({ id: u.id, email: u.email, isAdmin: false });
let seq = 0;

/**
 * A funded event with a deposit, one single commitment and a holder's group of `seats` (their own seat,
 * whose id is the group's, and guest seats on their card), charged through the pipeline, tickets
 * issued. `dropSlot`: that guest seat was dropped before the tip. `endedHoursAgo`: the event's end.
 */
async function groupOnDepositEvent(opts: {
  price: number;
  seats: number;
  dropSlot?: number;
  endedHoursAgo?: number;
  behavior?: CardBehavior;
}) {
  const f = await fundedPaidCampaign(fake, { pledges: 1, goal: 1 + opts.seats, priceCents: opts.price });
  const end = new Date(Date.now() - (opts.endedHoursAgo ?? -48) * HOUR);
  await db.campaign.update({
    where: { id: f.campaign.id },
    data: {
      depositCents: DEPOSIT,
      depositGraceHours: 24,
      maxSeats: 4,
      deadline: new Date(end.getTime() - 4 * HOUR),
      startsAt: new Date(end.getTime() - 3 * HOUR),
      endsAt: end,
      venue: "The Hall",
      platformFeeBps: BPS,
      platformFeeFixedCents: FIXED,
    },
  });
  const run = `${Date.now().toString(36)}dg${++seq}`;
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
  const seatIds = Array.from({ length: opts.seats }, (_, i) => `p_${run}_${i}`);
  await db.pledge.createMany({
    data: seatIds.map((id, i) => ({
      id,
      campaignId: f.campaign.id,
      userId: holder.id,
      contributor: "Holder",
      amountCents: opts.price,
      paymentMethodId: card,
      createdAt: new Date(Date.now() - 500),
      groupId,
      guestSlot: i,
      ...(i === opts.dropSlot ? { withdrawnAt: new Date(Date.now() - 1000) } : {}),
    })),
  });
  const live = opts.dropSlot === undefined ? opts.seats : opts.seats - 1;
  await db.campaign.update({
    where: { id: f.campaign.id },
    data: { committedCount: 1 + live, pledgeCount: 1 + live, goal: 1 + live },
  });
  await charging.runCharging(f.campaign.id);
  await tickets.issueTickets(db, f.campaign.id);
  const ticketRows = await db.ticket.findMany({ where: { campaignId: f.campaign.id } });
  const codeOf = new Map(ticketRows.map((t) => [t.pledgeId, t.code]));
  const payment = (await db.pledge.findUniqueOrThrow({ where: { id: groupId } })).paymentIntentId;
  return { ...f, holder, groupId, seatIds, codeOf, payment, organizer: actorOf(f.creator) };
}

const refundsOf = (pi: string | null) => fake.state.refunds.filter((r) => r.paymentIntent === pi);
const depositRefundRows = (pledgeId: string) =>
  db.moneyMovement.findMany({ where: { pledgeId, kind: "refund", purpose: "deposit" } });
const endEvent = (campaignId: string, hoursAgo: number) =>
  db.campaign.update({
    where: { id: campaignId },
    data: {
      endsAt: new Date(Date.now() - hoursAgo * HOUR),
      startsAt: new Date(Date.now() - (hoursAgo + 3) * HOUR),
      deadline: new Date(Date.now() - (hoursAgo + 4) * HOUR),
    },
  });

describe("a group on an event with a show-up deposit", () => {
  it("is charged once for 3 × (price + deposit); one deposit row covers each seat with its deposit", async () => {
    const P = 2000;
    const e = await groupOnDepositEvent({ price: P, seats: 3 });
    const charges = fake.state.chargesByPledge.get(e.groupId) ?? [];
    expect(charges.map((c) => [c.status, c.amount])).toEqual([["succeeded", 3 * (P + DEPOSIT)]]);
    for (const id of e.seatIds.slice(1)) expect(fake.chargeCount(id)).toBe(0);
    const pi = fake.state.paymentIntents.get(e.payment!)!;
    expect(pi.metadata.depositCents).toBe(String(3 * DEPOSIT));

    const seats = await db.pledge.findMany({ where: { id: { in: e.seatIds } } });
    expect(seats.every((s) => s.charged && s.chargeStatus === "succeeded" && s.amountCents === P)).toBe(true);
    const rows = await db.moneyMovement.findMany({
      where: { campaignId: e.campaign.id, kind: "charge", pledgeId: { in: e.seatIds } },
      include: { seats: true },
    });
    expect(rows.map((r) => [r.purpose, Number(r.amountCents), r.pledgeId]).sort()).toEqual([
      ["deposit", 3 * DEPOSIT, e.groupId],
      ["ticket", 3 * P, e.groupId],
    ]);
    for (const r of rows)
      expect(r.seats.map((s) => [s.pledgeId, Number(s.amountCents)]).sort()).toEqual(
        e.seatIds.map((id) => [id, r.purpose === "ticket" ? P : DEPOSIT]).sort(),
      );

    // the provider's report of the group's payment changes nothing (its amount less the deposits)
    const res = await deliverStripeEvent(webhook, "payment_intent.succeeded", {
      id: pi.id,
      object: "payment_intent",
      amount: pi.amount,
      created: Math.floor(Date.now() / 1000),
      status: "succeeded",
      metadata: pi.metadata,
    });
    expect(res.status).toBe(200);
    expect(await db.moneyMovement.count({ where: { pledgeId: { in: e.seatIds }, kind: "charge" } })).toBe(2);

    // every reader sees each seat: its ticket paid, its deposit held
    const money = await queries.refundState(e.seatIds);
    for (const id of e.seatIds) expect(money.get(id)).toMatchObject({ chargedCents: P, refund: "none" });
    const lines = await surfaces.depositLinesOf(e.seatIds.map((id) => ({ id, standing: "in" as const })));
    for (const id of e.seatIds) expect(lines.get(id)?.state).toBe("held");
    const l = await ledger.ledgerOf(db, e.campaign.id);
    expect(l).toMatchObject({
      collectedCents: 4 * P,
      depositChargedCents: 4 * DEPOSIT,
      depositHeldCents: 4 * DEPOSIT,
      depositKeptCents: 0,
    });
    const roster = await surfaces.depositRosterOf(e.organizer, e.campaign.id);
    expect(roster?.counts).toEqual({ held: 4, refunded: 0, kept: 0 });
    expect(roster?.notCheckedIn).toHaveLength(4);
  });

  it("seat 2 checks in: only seat 2's deposit is refunded, once, whatever runs twice or at once", async () => {
    const e = await groupOnDepositEvent({ price: 2000, seats: 3 });
    const seat2 = e.seatIds[1]!;
    const code = e.codeOf.get(seat2)!;
    const scans = await Promise.all([
      ...Array.from({ length: 4 }, () => checkInLib.checkIn(e.organizer, e.campaign.id, { code })),
      deposits.refundOwedDeposits({ campaignId: e.campaign.id }),
      deposits.refundOwedDeposits(),
      deposits.refundOwedDeposits({ pledgeId: seat2 }),
    ]);
    const answers = scans.slice(0, 4) as Awaited<ReturnType<typeof checkInLib.checkIn>>[];
    const done = answers.find((a) => a.kind === "checked_in");
    expect(answers.filter((a) => a.kind === "checked_in")).toHaveLength(1);
    expect(done && "depositCents" in done ? done.depositCents : null).toBe(DEPOSIT);
    await Promise.all([
      deposits.refundOwedDeposits({ campaignId: e.campaign.id }),
      deposits.refundOwedDeposits({ pledgeId: seat2 }),
      deposits.refundOwedDeposits(),
    ]);
    await deposits.refundOwedDeposits({ pledgeId: seat2 });

    expect(refundsOf(e.payment)).toEqual([
      expect.objectContaining({ amount: DEPOSIT, paymentIntent: e.payment }),
    ]);
    expect(
      (await depositRefundRows(seat2)).map((r) => [r.state, Number(r.amountCents), r.idempotencyKey]),
    ).toEqual([["succeeded", DEPOSIT, deposits.depositRefundKey(seat2)]]);
    for (const id of [e.seatIds[0]!, e.seatIds[2]!]) expect(await depositRefundRows(id)).toEqual([]);
    expect(await db.emailOutbox.count({ where: { dedupeKey: `deposit-refunded:${seat2}` } })).toBe(1);
    const lines = await surfaces.depositLinesOf(e.seatIds.map((id) => ({ id, standing: "in" as const })));
    expect(e.seatIds.map((id) => lines.get(id)?.state)).toEqual(["held", "refunded", "held"]);
    const l = await ledger.ledgerOf(db, e.campaign.id);
    expect(l.depositRefundedCents).toBe(DEPOSIT);
    expect(l.depositHeldCents).toBe(3 * DEPOSIT);

    // the holder's My commitments: their own deposit, and their guests' in one line
    const { listMyCommitments } = await import("@/lib/pledges/mine");
    const mine = (await listMyCommitments({ ...e.holder, isAdmin: false })).filter(
      (m) => m.campaignId === e.campaign.id,
    );
    expect(mine).toHaveLength(1);
    expect(mine[0]!.deposit).toMatchObject({
      state: "held",
      text: "$10.00 deposit held until you check in",
      guests: "Your guests' $10.00 deposits: 1 held until they check in, 1 refunded",
    });

    // the organizer's CSV, one row per seat: each seat's ticket share, its own deposit state, which seat
    const { getCommitmentsCsv } = await import("@/lib/pledges/commitments-csv");
    const viewer = { ...e.organizer, name: null };
    const csv = (await getCommitmentsCsv(e.campaign.id, viewer))!.csv;
    const [header, ...body] = csv
      .trim()
      .split("\r\n")
      .map((line) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]!));
    const rows = body.map((cells) => Object.fromEntries(header!.map((h, i) => [h, cells[i]])));
    const seatRows = rows
      .filter((r) => r.Seat)
      .map((r) => [r.Seat, r["Charged (USD)"], r.Deposit])
      .sort();
    expect(seatRows).toEqual([
      ["Guest 1", "20.00", "refunded"],
      ["Guest 2", "20.00", "held"],
      ["Holds 3 seats", "20.00", "held"],
    ]);
    // the manage page's Deposits: the refunded seat counted once, the others held, each by its number
    const roster = await surfaces.depositRosterOf(e.organizer, e.campaign.id);
    expect(roster?.counts).toEqual({ held: 3, refunded: 1, kept: 0 });
    expect(roster?.notCheckedIn.map((r) => r.pledgeId).sort()).not.toContain(seat2);
  });

  it("a named friend's seat checks in: its deposit goes back to the holder's card, and the holder is told", async () => {
    const e = await groupOnDepositEvent({ price: 2000, seats: 3 });
    const friend = await db.user.create({
      data: { email: `friend-${Date.now().toString(36)}${++seq}@example.test`, name: "Friend" },
    });
    const seat = e.seatIds[1]!;
    // the friend claimed guest seat 1 (lib/pledges/friends claimSeat: their own seat, slot 0, same group)
    await db.pledge.update({ where: { id: seat }, data: { userId: friend.id, guestSlot: 0 } });
    await checkInLib.checkIn(e.organizer, e.campaign.id, { code: e.codeOf.get(seat)! });
    await deposits.refundOwedDeposits({ campaignId: e.campaign.id });
    expect(refundsOf(e.payment).map((r) => r.amount)).toEqual([DEPOSIT]);
    const mail = await db.emailOutbox.findMany({ where: { dedupeKey: `deposit-refunded:${seat}` } });
    expect(mail.map((m) => m.toEmail)).toEqual([e.holder.email]);
    expect(mail[0]!.text).toContain("show-up deposit of your friend's seat");
  });

  it("the other seats' deposits are kept after the grace and reach the payout ledger as kept", async () => {
    const e = await groupOnDepositEvent({ price: 2000, seats: 3, endedHoursAgo: 2 });
    const [own, seat2] = e.seatIds;
    await checkInLib.checkIn(e.organizer, e.campaign.id, { code: e.codeOf.get(seat2!)! });
    // the organizer excuses the holder's own seat: refunded like a check-in's, once
    await Promise.all([excuse.excuseDeposit(e.organizer, own!), excuse.excuseDeposit(e.organizer, own!)]);
    await deposits.refundOwedDeposits({ campaignId: e.campaign.id });
    await endEvent(e.campaign.id, 25);
    await deposits.refundOwedDeposits();

    expect(refundsOf(e.payment).map((r) => r.amount)).toEqual([DEPOSIT, DEPOSIT]);
    const l = await ledger.ledgerOf(db, e.campaign.id);
    // kept: guest seat 2 and the single backer; refunded: the check-in and the excused seat
    expect(l.depositKeptCents).toBe(2 * DEPOSIT);
    expect(l.depositKeptCount).toBe(2);
    expect(l.depositRefundedCents).toBe(2 * DEPOSIT);
    expect(l.depositHeldCents).toBe(0);
    expect(l.depositFeeCents).toBe(2 * Math.round((DEPOSIT * BPS) / 10_000));
    const states = await surfaces.depositStatesOf(e.seatIds);
    expect(e.seatIds.map((id) => states.get(id))).toEqual(["refunded", "refunded", "kept"]);
    // the kept seat cannot be excused any more
    await expect(excuse.excuseDeposit(e.organizer, e.seatIds[2]!)).rejects.toMatchObject({
      message: excuse.EXCUSE_TEXTS.tooLate,
    });
  });

  it("cancelling refunds the group's whole payment exactly once across its seats", async () => {
    const P = 2000;
    const e = await groupOnDepositEvent({ price: P, seats: 3 });
    await checkInLib.checkIn(e.organizer, e.campaign.id, { code: e.codeOf.get(e.seatIds[2]!)! });
    await deposits.refundOwedDeposits({ campaignId: e.campaign.id });
    await cancellation.cancelCampaign(e.organizer, { campaignId: e.campaign.id, reason: "Venue closed" });
    await Promise.all([
      refunds.refundOwedPledges(e.campaign.id),
      refunds.refundOwedPledges(),
      deposits.refundOwedDeposits({ campaignId: e.campaign.id }),
    ]);
    await refunds.refundOwedPledges(e.campaign.id);
    const amounts = refundsOf(e.payment).map((r) => r.amount);
    expect(amounts.sort((a, b) => a - b)).toEqual([DEPOSIT, DEPOSIT, DEPOSIT, P, P, P]);
    expect(amounts.reduce((s, a) => s + a, 0)).toBe(fake.state.paymentIntents.get(e.payment!)!.amount);
    for (const id of e.seatIds) {
      const rows = await db.moneyMovement.findMany({ where: { pledgeId: id, kind: "refund" } });
      expect(rows.map((r) => [r.purpose, r.state, Number(r.amountCents)]).sort()).toEqual([
        ["deposit", "succeeded", DEPOSIT],
        ["ticket", "succeeded", P],
      ]);
    }
    const l = await ledger.ledgerOf(db, e.campaign.id);
    expect(l.depositRefundedCents).toBe(4 * DEPOSIT);
    expect(l.depositHeldCents + l.depositKeptCents).toBe(0);
  });

  it("a seat dropped before the tip is not charged, and has no deposit", async () => {
    const P = 2000;
    const e = await groupOnDepositEvent({ price: P, seats: 3, dropSlot: 2 });
    const charges = fake.state.chargesByPledge.get(e.groupId) ?? [];
    expect(charges.map((c) => [c.status, c.amount])).toEqual([["succeeded", 2 * (P + DEPOSIT)]]);
    const dropped = await db.pledge.findUniqueOrThrow({ where: { id: e.seatIds[2]! } });
    expect(dropped).toMatchObject({ charged: false, chargeStatus: "none" });
    const dep = await db.moneyMovement.findFirstOrThrow({
      where: { pledgeId: e.groupId, kind: "charge", purpose: "deposit" },
      include: { seats: true },
    });
    expect(Number(dep.amountCents)).toBe(2 * DEPOSIT);
    expect(dep.seats.map((s) => s.pledgeId).sort()).toEqual(e.seatIds.slice(0, 2).sort());
    // a withdrawn seat is "owed back" by the rule, but it was never charged: nothing is refunded
    await deposits.refundOwedDeposits({ campaignId: e.campaign.id });
    await refunds.refundOwedPledges(e.campaign.id);
    expect(refundsOf(e.payment)).toEqual([]);
    const l = await ledger.ledgerOf(db, e.campaign.id);
    expect(l.depositChargedCents).toBe(3 * DEPOSIT);
  });

  it("a free event (price 0) with a deposit: one charge of 3 × the deposit, each seat refunded on its own", async () => {
    const e = await groupOnDepositEvent({ price: 0, seats: 3 });
    const charges = fake.state.chargesByPledge.get(e.groupId) ?? [];
    expect(charges.map((c) => [c.status, c.amount])).toEqual([["succeeded", 3 * DEPOSIT]]);
    const seats = await db.pledge.findMany({ where: { id: { in: e.seatIds } } });
    expect(seats.every((s) => s.charged && s.chargeType === "paid" && s.amountCents === 0)).toBe(true);
    const dep = await db.moneyMovement.findFirstOrThrow({
      where: { pledgeId: e.groupId, kind: "charge", purpose: "deposit" },
      include: { seats: true },
    });
    expect(Number(dep.amountCents)).toBe(3 * DEPOSIT);
    expect(dep.seats).toHaveLength(3);

    const seat3 = e.seatIds[2]!;
    await checkInLib.checkIn(e.organizer, e.campaign.id, { code: e.codeOf.get(seat3)! });
    await Promise.all([deposits.refundOwedDeposits({ pledgeId: seat3 }), deposits.refundOwedDeposits()]);
    expect(refundsOf(e.payment).map((r) => r.amount)).toEqual([DEPOSIT]);

    // cancelled: the other two deposits, once each; no ticket refund (there is no ticket part)
    await cancellation.cancelCampaign(e.organizer, { campaignId: e.campaign.id, reason: "Rain" });
    await Promise.all([refunds.refundOwedPledges(e.campaign.id), refunds.refundOwedPledges()]);
    expect(refundsOf(e.payment).map((r) => r.amount)).toEqual([DEPOSIT, DEPOSIT, DEPOSIT]);
    expect(
      await db.moneyMovement.count({
        where: { pledgeId: { in: e.seatIds }, kind: "refund", purpose: "ticket" },
      }),
    ).toBe(0);
  });

  it("a group that tips the event pays once on-session, 3 × (price + deposit), and says so", async () => {
    const P = 1500;
    const pledgeService = await import("@/lib/pledges/service");
    const c = await createCampaign({ goal: 3, ticketPriceCents: P, maxSeats: 4 });
    await db.campaign.update({
      where: { id: c.id },
      data: { depositCents: DEPOSIT, startsAt: new Date(Date.now() + 9 * 86_400_000), venue: "Old Hall" },
    });
    const [ada] = await stripeBackers(fake, 1);
    const r = await pledgeService.commitToCampaign(ada!, {
      campaignId: c.id,
      paymentMethodId: ada!.card,
      seats: 3,
    });
    expect(r).toMatchObject({
      crossed: true,
      ownPayment: { status: "succeeded", amountCents: 3 * (P + DEPOSIT) },
    });
    const charges = (fake.state.chargesByPledge.get(r.pledgeId) ?? []).map((x) => [x.status, x.amount]);
    expect(charges).toEqual([["succeeded", 3 * (P + DEPOSIT)]]);
    await charging.runCharging(c.id);
    expect(fake.chargeCount(r.pledgeId)).toBe(1);
    const dep = await db.moneyMovement.findFirstOrThrow({
      where: { pledgeId: r.pledgeId, kind: "charge", purpose: "deposit" },
      include: { seats: true },
    });
    expect([Number(dep.amountCents), dep.seats.length]).toEqual([3 * DEPOSIT, 3]);
  });

  it("a failed group payment is paid once for every seat, deposits included", async () => {
    const P = 2000;
    const f = await fundedPaidCampaign(fake, { pledges: 0, goal: 3, priceCents: P });
    await db.campaign.update({
      where: { id: f.campaign.id },
      data: {
        depositCents: DEPOSIT,
        startsAt: new Date(Date.now() + 9 * 86_400_000),
        venue: "Old Hall",
        maxSeats: 4,
      },
    });
    const run = `${Date.now().toString(36)}dr${++seq}`;
    const holder = await db.user.create({
      data: { id: `u_${run}_h`, email: `holder-${run}@example.test`, stripeCustomerId: `cus_${run}_h` },
    });
    const declined = fake.addPaymentMethod(holder.stripeCustomerId!, "generic_decline");
    const seatIds = [0, 1, 2].map((i) => `p_${run}_${i}`);
    await db.pledge.createMany({
      data: seatIds.map((id, i) => ({
        id,
        campaignId: f.campaign.id,
        userId: holder.id,
        contributor: "Holder",
        amountCents: P,
        paymentMethodId: declined,
        groupId: seatIds[0],
        guestSlot: i,
      })),
    });
    await db.campaign.update({ where: { id: f.campaign.id }, data: { committedCount: 3, pledgeCount: 3 } });
    await charging.runCharging(f.campaign.id);
    const asked = (fake.state.chargesByPledge.get(seatIds[0]!) ?? []).map((x) => x.amount);
    expect(asked).toEqual([3 * (P + DEPOSIT)]);
    const { getPledgeForPayment } = await import("@/lib/charging/queries");
    expect(await getPledgeForPayment(seatIds[1]!, holder.id)).toMatchObject({
      amountCents: 3 * P,
      depositCents: 3 * DEPOSIT,
    });
    const recovery = await import("@/lib/charging/recovery");
    const card = fake.addPaymentMethod(holder.stripeCustomerId!, "ok");
    const viewer = { id: holder.id, email: holder.email, isAdmin: false };
    expect(
      await recovery.payPledgeOnSession(viewer, { pledgeId: seatIds[2]!, paymentMethodId: card }),
    ).toEqual({
      status: "succeeded",
    });
    const paid = (fake.state.chargesByPledge.get(seatIds[0]!) ?? []).filter((x) => x.status === "succeeded");
    expect(paid.map((x) => x.amount)).toEqual([3 * (P + DEPOSIT)]);
    const dep = await db.moneyMovement.findMany({
      where: { pledgeId: seatIds[0], kind: "charge", purpose: "deposit" },
      include: { seats: true },
      orderBy: { id: "asc" },
    });
    // the failed attempt's row and the paid one's, each for the 3 seats' deposits
    expect(dep.map((d) => [d.state, Number(d.amountCents), d.seats.length])).toEqual([
      ["failed", 3 * DEPOSIT, 3],
      ["succeeded", 3 * DEPOSIT, 3],
    ]);
    const l = await ledger.ledgerOf(db, f.campaign.id);
    expect(l).toMatchObject({
      collectedCents: 3 * P,
      depositChargedCents: 3 * DEPOSIT,
      depositHeldCents: 3 * DEPOSIT,
    });
  });

  it("a payment the bank authenticated later, reported by the webhook: each seat's ticket and deposit recorded once", async () => {
    const P = 2000;
    const e = await groupOnDepositEvent({ price: P, seats: 3, behavior: "authentication_required" });
    const lead = await db.pledge.findUniqueOrThrow({ where: { id: e.groupId } });
    expect(lead.chargeStatus).toBe("requires_action");
    const pi = fake.state.paymentIntents.get(lead.paymentIntentId!)!;
    expect([pi.amount, pi.metadata.depositCents]).toEqual([3 * (P + DEPOSIT), String(3 * DEPOSIT)]);
    const { handleIntentEvent } = await import("@/lib/charging/on-intent");
    const event = {
      id: `evt_dgroup_${++seq}_${Date.now().toString(36)}`,
      object: "event",
      type: "payment_intent.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: pi.id,
          object: "payment_intent",
          amount: pi.amount,
          created: Math.floor(Date.now() / 1000),
          status: "succeeded",
          metadata: { ...pi.metadata, pledgeId: e.groupId, attempt: String(lead.chargeAttempts) },
        },
      },
    } as unknown as Parameters<typeof handleIntentEvent>[0];
    expect(await handleIntentEvent(event)).toBe(true);
    expect(await handleIntentEvent(event)).toBe(false);
    const seats = await db.pledge.findMany({ where: { id: { in: e.seatIds } } });
    expect(seats.every((s) => s.chargeStatus === "succeeded" && s.amountCents === P)).toBe(true);
    const rows = await db.moneyMovement.findMany({
      where: { pledgeId: e.groupId, kind: "charge", state: "succeeded" },
      include: { seats: true },
    });
    expect(rows.map((r) => [r.purpose, Number(r.amountCents), r.seats.length]).sort()).toEqual([
      ["deposit", 3 * DEPOSIT, 3],
      ["ticket", 3 * P, 3],
    ]);
    const l = await ledger.ledgerOf(db, e.campaign.id);
    expect(l).toMatchObject({ collectedCents: 4 * P, depositChargedCents: 4 * DEPOSIT });
  });

  it("a seat given up while the group's payment waits for the bank: paid with the others, then its ticket and deposit refunded once", async () => {
    const P = 2000;
    const pledgeService = await import("@/lib/pledges/service");
    const giveUp = await import("@/lib/pledges/give-up");
    const c = await createCampaign({ goal: 3, capacity: 3, ticketPriceCents: P, maxSeats: 4 });
    await db.campaign.update({
      where: { id: c.id },
      data: { depositCents: DEPOSIT, startsAt: new Date(Date.now() + 9 * 86_400_000), venue: "Old Hall" },
    });
    const [ada, bo] = await stripeBackers(fake, 2, (i) => (i === 0 ? "authentication_required" : "ok"));
    const r = await pledgeService.commitToCampaign(ada!, {
      campaignId: c.id,
      paymentMethodId: ada!.card,
      seats: 3,
    });
    const b = await pledgeService.commitToCampaign(bo!, { campaignId: c.id, paymentMethodId: bo!.card });
    expect(b.waitlisted).toBe(true);
    await charging.runCharging(c.id);
    const lead = await db.pledge.findUniqueOrThrow({ where: { id: r.pledgeId } });
    expect(lead.chargeStatus).toBe("requires_action");
    // while the bank asks, Ada gives a guest seat up: Bo takes it and pays his ticket and deposit
    await giveUp.giveUpPlace(ada!, { campaignId: c.id });
    await charging.runCharging(c.id);
    const boPaid = (fake.state.chargesByPledge.get(b.pledgeId) ?? []).filter((x) => x.status === "succeeded");
    expect(boPaid.map((x) => x.amount)).toEqual([P + DEPOSIT]);
    // the bank says yes to the payment of 3 seats
    const pi = fake.state.paymentIntents.get(lead.paymentIntentId!)!;
    expect(pi.amount).toBe(3 * (P + DEPOSIT));
    pi.status = "succeeded";
    const { handleIntentEvent } = await import("@/lib/charging/on-intent");
    const event = {
      id: `evt_dgive_${++seq}_${Date.now().toString(36)}`,
      object: "event",
      type: "payment_intent.succeeded",
      created: Math.floor(Date.now() / 1000),
      data: {
        object: {
          id: pi.id,
          object: "payment_intent",
          amount: pi.amount,
          created: Math.floor(Date.now() / 1000),
          status: "succeeded",
          metadata: { ...pi.metadata, pledgeId: r.pledgeId, attempt: String(lead.chargeAttempts) },
        },
      },
    } as unknown as Parameters<typeof handleIntentEvent>[0];
    expect(await handleIntentEvent(event)).toBe(true);
    const seats = await db.pledge.findMany({ where: { groupId: r.pledgeId }, orderBy: { guestSlot: "asc" } });
    expect(seats.map((s) => s.chargeStatus)).toEqual(["succeeded", "succeeded", "succeeded"]);
    const dep = await db.moneyMovement.findFirstOrThrow({
      where: { pledgeId: r.pledgeId, kind: "charge", purpose: "deposit", state: "succeeded" },
      include: { seats: true },
    });
    expect([Number(dep.amountCents), dep.seats.length]).toEqual([3 * DEPOSIT, 3]);
    await Promise.all([refunds.refundOwedPledges(c.id), refunds.refundOwedPledges()]);
    await refunds.refundOwedPledges(c.id);
    const given = seats.find((s) => s.gaveUpAt)!;
    const refundRows = await db.moneyMovement.findMany({ where: { campaignId: c.id, kind: "refund" } });
    expect(refundRows.map((m) => [m.pledgeId, m.purpose, m.state, Number(m.amountCents)]).sort()).toEqual([
      [given.id, "deposit", "succeeded", DEPOSIT],
      [given.id, "ticket", "succeeded", P],
    ]);
    expect(
      refundsOf(pi.id)
        .map((x) => x.amount)
        .sort((a, b) => a - b),
    ).toEqual([DEPOSIT, P]);
  });
});
