import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { fundedPaidCampaign } from "@/tests/charging/helpers";
import { deliverStripeEvent } from "@/tests/fake-stripe/webhook";

/**
 * The show-up deposit's money (issue 36 item 3) against the fake Stripe: charged at the tip in the
 * ticket's payment as its own money row; refunded exactly once by a partial refund at check-in (a
 * double scan, concurrent doors and a racing sweeper included); kept after the end plus the grace and
 * paid out then, less the platform fee; excused, then refunded; cancelled, then every deposit and
 * ticket refunded — the provider's refunds of each payment adding up to what it took.
 */
let fake: FakeStripe;
let charging: typeof import("@/lib/charging/service");
let payouts: typeof import("@/lib/payouts/service");
let accounts: typeof import("@/lib/payouts/accounts");
let ledger: typeof import("@/lib/payouts/ledger");
let deposits: typeof import("@/lib/ledger/deposits");
let checkInLib: typeof import("@/lib/tickets/check-in");
let tickets: typeof import("@/lib/tickets/service");
let excuse: typeof import("@/lib/pledges/excuse");
let cancellation: typeof import("@/lib/cancellation/service");
let withdraw: typeof import("@/lib/pledges/withdraw");
let refunds: typeof import("@/lib/ledger/refunds");
let webhook: (req: Request) => Promise<Response>;

const BPS = 250;
const FIXED = 30;
const PRICE = 2000;
const DEPOSIT = 1000;
const HOUR = 3_600_000;
const DAY = 24 * HOUR;

beforeAll(async () => {
  fake = await startFakeStripe();
  useFakeStripeEnv(fake, {
    STRIPE_RATE_LIMIT: "1000",
    RATE_LIMIT_DISABLED: "true",
    PLATFORM_FEE_BPS: String(BPS),
    PLATFORM_FEE_FIXED_CENTS: String(FIXED),
    PAYOUT_HOLD_DAYS: "7",
  });
  charging = await import("@/lib/charging/service");
  payouts = await import("@/lib/payouts/service");
  accounts = await import("@/lib/payouts/accounts");
  ledger = await import("@/lib/payouts/ledger");
  deposits = await import("@/lib/ledger/deposits");
  checkInLib = await import("@/lib/tickets/check-in");
  tickets = await import("@/lib/tickets/service");
  excuse = await import("@/lib/pledges/excuse");
  cancellation = await import("@/lib/cancellation/service");
  withdraw = await import("@/lib/pledges/withdraw");
  refunds = await import("@/lib/ledger/refunds");
  ({ POST: webhook } = await import("@/app/api/stripe/webhook/route"));
});
afterAll(async () => {
  await fake.close();
});

const actorOf = (u: { id: string; email: string }) => ({ id: u.id, email: u.email, isAdmin: false });

/**
 * A paid event with a deposit, `n` backers charged at the tip through the pipeline, tickets issued.
 * `endedHoursAgo`: the event's end that long ago (negative: in the future).
 */
async function depositEvent(n: number, endedHoursAgo = -48) {
  const f = await fundedPaidCampaign(fake, { pledges: n, priceCents: PRICE });
  const end = new Date(Date.now() - endedHoursAgo * HOUR);
  await db.campaign.update({
    where: { id: f.campaign.id },
    data: {
      depositCents: DEPOSIT,
      depositGraceHours: 24,
      deadline: new Date(end.getTime() - 4 * HOUR),
      startsAt: new Date(end.getTime() - 3 * HOUR),
      endsAt: end,
      venue: "The Hall",
      platformFeeBps: BPS,
      platformFeeFixedCents: FIXED,
    },
  });
  await charging.runCharging(f.campaign.id);
  await tickets.issueTickets(db, f.campaign.id);
  const ticketRows = await db.ticket.findMany({ where: { campaignId: f.campaign.id } });
  const codeOf = new Map(ticketRows.map((t) => [t.pledgeId, t.code]));
  const pledges = await db.pledge.findMany({
    where: { campaignId: f.campaign.id },
    orderBy: { createdAt: "asc" },
  });
  return { ...f, pledges, codeOf, organizer: actorOf(f.creator) };
}

const refundsOf = (pi: string | null) => fake.state.refunds.filter((r) => r.paymentIntent === pi);
const depositRefundRows = (pledgeId: string) =>
  db.moneyMovement.findMany({ where: { pledgeId, kind: "refund", purpose: "deposit" } });
const ledgerOf = (campaignId: string) => ledger.ledgerOf(db, campaignId);

/** Moves the event's end to `hoursAgo` hours ago (the deposit is kept 24 h after it). */
const endEvent = (campaignId: string, hoursAgo: number) =>
  db.campaign.update({
    where: { id: campaignId },
    data: {
      endsAt: new Date(Date.now() - hoursAgo * HOUR),
      startsAt: new Date(Date.now() - (hoursAgo + 3) * HOUR),
      deadline: new Date(Date.now() - (hoursAgo + 4) * HOUR),
    },
  });

describe("show-up deposit", () => {
  it("is charged at the tip in the ticket's payment, as its own money row; the ledger holds it", async () => {
    const e = await depositEvent(4);
    for (const p of e.pledges) {
      expect(p.chargeStatus).toBe("succeeded");
      expect(p.amountCents).toBe(PRICE); // the ticket's part stays the pledge's amount
      const pi = fake.state.paymentIntents.get(p.paymentIntentId!);
      expect(pi?.amount).toBe(PRICE + DEPOSIT);
      const rows = await db.moneyMovement.findMany({ where: { pledgeId: p.id, kind: "charge" } });
      expect(rows.map((r) => [r.purpose, Number(r.amountCents), r.state]).sort()).toEqual([
        ["deposit", DEPOSIT, "succeeded"],
        ["ticket", PRICE, "succeeded"],
      ]);
    }
    // Stripe's report of the payment (its amount is ticket + deposit) changes nothing: the ticket's part stays
    const pi = fake.state.paymentIntents.get(e.pledges[0].paymentIntentId!)!;
    expect(pi.metadata.depositCents).toBe(String(DEPOSIT));
    const res = await deliverStripeEvent(webhook, "payment_intent.succeeded", {
      id: pi.id,
      object: "payment_intent",
      amount: pi.amount,
      created: Math.floor(Date.now() / 1000),
      status: "succeeded",
      metadata: pi.metadata,
    });
    expect(res.status).toBe(200);
    expect((await db.pledge.findUniqueOrThrow({ where: { id: e.pledges[0].id } })).amountCents).toBe(PRICE);
    const l = await ledgerOf(e.campaign.id);
    expect(l.collectedCents).toBe(4 * PRICE);
    expect(l.depositChargedCents).toBe(4 * DEPOSIT);
    expect(l.depositHeldCents).toBe(4 * DEPOSIT);
    expect(l.depositKeptCents).toBe(0);
  });

  it("is refunded exactly once at check-in: a double scan, five doors at once and racing sweepers", async () => {
    const e = await depositEvent(3);
    const [first, second] = e.pledges;
    const code = e.codeOf.get(first.id)!;
    const scans = await Promise.all([
      ...Array.from({ length: 5 }, () => checkInLib.checkIn(e.organizer, e.campaign.id, { code })),
      deposits.refundOwedDeposits({ campaignId: e.campaign.id }),
      deposits.refundOwedDeposits(),
    ]);
    const answers = scans.slice(0, 5) as Awaited<ReturnType<typeof checkInLib.checkIn>>[];
    expect(answers.filter((a) => a.kind === "checked_in")).toHaveLength(1);
    expect(answers.filter((a) => a.kind === "already")).toHaveLength(4);
    const done = answers.find((a) => a.kind === "checked_in");
    expect(done && "depositCents" in done ? done.depositCents : null).toBe(DEPOSIT);
    // the door does not wait for the provider; the sweeper would finish it — settle it here
    await deposits.refundOwedDeposits({ campaignId: e.campaign.id });
    // a second scan later, and more sweeps: nothing more
    expect((await checkInLib.checkIn(e.organizer, e.campaign.id, { code })).kind).toBe("already");
    await Promise.all([deposits.refundOwedDeposits(), deposits.refundOwedDeposits({ pledgeId: first.id })]);

    expect(refundsOf(first.paymentIntentId)).toEqual([
      expect.objectContaining({ amount: DEPOSIT, paymentIntent: first.paymentIntentId }),
    ]);
    const rows = await depositRefundRows(first.id);
    expect(rows.map((r) => [r.state, Number(r.amountCents)])).toEqual([["succeeded", DEPOSIT]]);
    // the ticket's part stays paid, and nobody else's deposit moved
    expect(
      await db.moneyMovement.count({ where: { pledgeId: first.id, kind: "refund", purpose: "ticket" } }),
    ).toBe(0);
    expect(refundsOf(second.paymentIntentId)).toEqual([]);
    const emails = await db.emailOutbox.count({ where: { dedupeKey: `deposit-refunded:${first.id}` } });
    expect(emails).toBe(1);
    const l = await ledgerOf(e.campaign.id);
    expect(l.depositRefundedCents).toBe(DEPOSIT);
    expect(l.depositHeldCents).toBe(2 * DEPOSIT);
  });

  it("is kept by those not checked in after the end plus the grace, and paid out then, less the platform fee", async () => {
    const e = await depositEvent(4, 2); // ended 2 hours ago: within the grace
    await db.campaign.update({
      where: { id: e.campaign.id },
      data: { fundedAt: new Date(Date.now() - 8 * DAY) },
    });
    const row = await db.payoutAccount.findUnique({ where: { userId: e.creator.id } });
    expect(row).toBeNull();
    await db.user.update({ where: { id: e.creator.id }, data: { emailVerified: new Date() } });
    await accounts.startPayoutOnboarding(e.creator);
    const account = await db.payoutAccount.findUniqueOrThrow({ where: { userId: e.creator.id } });
    fake.setAccountState(account.accountId, "ready");
    await accounts.refreshPayoutAccount(e.creator.id);

    const [attended] = e.pledges;
    await checkInLib.checkIn(e.organizer, e.campaign.id, { code: e.codeOf.get(attended.id)! });
    await deposits.refundOwedDeposits({ campaignId: e.campaign.id });

    // within the grace: the tickets are paid out, every deposit is held
    await payouts.runPayout(e.campaign.id);
    const feesNow = await ledgerOf(e.campaign.id);
    const ticketsNet =
      4 * PRICE - 4 * (Math.round((PRICE * BPS) / 10_000) + FIXED) - feesNow.processingFeeCents;
    expect(feesNow.depositHeldCents).toBe(3 * DEPOSIT);
    expect(feesNow.transferredCents).toBe(ticketsNet);

    // the grace passes (the clock moved: the first payout ran 2 hours ago, within the grace): three
    // deposits kept, a check-in now refunds nothing
    await endEvent(e.campaign.id, 25);
    await db.campaign.update({
      where: { id: e.campaign.id },
      data: {
        payoutSettledAt: new Date(Date.now() - 2 * HOUR),
        payoutCheckedAt: new Date(Date.now() - 2 * HOUR),
      },
    });
    const late = e.pledges[1];
    expect(
      (await checkInLib.checkIn(e.organizer, e.campaign.id, { code: e.codeOf.get(late.id)! })).kind,
    ).toBe("checked_in");
    await deposits.refundOwedDeposits({ campaignId: e.campaign.id });
    expect(refundsOf(late.paymentIntentId)).toEqual([]);
    const after = await ledgerOf(e.campaign.id);
    const keptFee = 3 * Math.round((DEPOSIT * BPS) / 10_000);
    expect(after.depositKeptCents).toBe(3 * DEPOSIT);
    expect(after.depositKeptCount).toBe(3);
    expect(after.depositFeeCents).toBe(keptFee);
    expect(after.depositHeldCents).toBe(0);

    expect(await payouts.listDuePayouts()).toContain(e.campaign.id);
    await Promise.all([payouts.runPayout(e.campaign.id), payouts.runPayout(e.campaign.id)]);
    const final = await ledgerOf(e.campaign.id);
    expect(final.transferredCents).toBe(ticketsNet + 3 * DEPOSIT - keptFee);
    expect(final.reversedCents).toBe(0);
    expect(final.dueCents).toBe(0);
    const moved = [...fake.state.transfers.values()].filter((t) => t.destination === account.accountId);
    expect(moved.reduce((s, t) => s + Number(t.amount), 0)).toBe(final.transferredCents);
  });

  it("is refunded when the organizer excuses the person, once, and only until it is kept", async () => {
    const e = await depositEvent(3, 2);
    const [excused, other, third] = e.pledges;
    const stranger = actorOf(e.users[2]);
    await expect(excuse.excuseDeposit(stranger, excused.id)).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(excuse.excuseDeposit(null, excused.id)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    await expect(excuse.excuseDeposit(e.organizer, "nope")).rejects.toMatchObject({ code: "NOT_FOUND" });
    await Promise.all([
      excuse.excuseDeposit(e.organizer, excused.id),
      excuse.excuseDeposit(e.organizer, excused.id),
    ]);
    await deposits.refundOwedDeposits();
    expect(refundsOf(excused.paymentIntentId)).toEqual([expect.objectContaining({ amount: DEPOSIT })]);
    expect((await depositRefundRows(excused.id)).map((r) => r.state)).toEqual(["succeeded"]);

    // a checked-in person needs no excuse; after the grace nobody can be excused
    await checkInLib.checkIn(e.organizer, e.campaign.id, { code: e.codeOf.get(other.id)! });
    await expect(excuse.excuseDeposit(e.organizer, other.id)).rejects.toMatchObject({
      message: excuse.EXCUSE_TEXTS.checkedIn,
    });
    await endEvent(e.campaign.id, 25);
    await expect(excuse.excuseDeposit(e.organizer, third.id)).rejects.toMatchObject({
      message: excuse.EXCUSE_TEXTS.tooLate,
    });
    expect(await db.pledge.count({ where: { id: third.id, depositExcusedAt: { not: null } } })).toBe(0);
  });

  it("cancelling the event refunds every ticket and every deposit, each once, adding up to each payment", async () => {
    const e = await depositEvent(4);
    const [attended] = e.pledges;
    await checkInLib.checkIn(e.organizer, e.campaign.id, { code: e.codeOf.get(attended.id)! });
    await deposits.refundOwedDeposits({ campaignId: e.campaign.id });
    await cancellation.cancelCampaign(e.organizer, { campaignId: e.campaign.id, reason: "Venue closed" });
    await Promise.all([
      deposits.refundOwedDeposits(),
      deposits.refundOwedDeposits({ campaignId: e.campaign.id }),
    ]);
    for (const p of e.pledges) {
      const refunds = refundsOf(p.paymentIntentId);
      expect(refunds.map((r) => r.amount).sort()).toEqual([DEPOSIT, PRICE].sort((a, b) => a - b));
      const rows = await db.moneyMovement.findMany({ where: { pledgeId: p.id, kind: "refund" } });
      expect(rows.map((r) => [r.purpose, r.state]).sort()).toEqual([
        ["deposit", "succeeded"],
        ["ticket", "succeeded"],
      ]);
    }
    const l = await ledgerOf(e.campaign.id);
    expect(l.depositRefundedCents).toBe(4 * DEPOSIT);
    expect(l.depositHeldCents + l.depositKeptCents).toBe(0);
  });

  it("follows the place: a change-window withdrawal refunds ticket and deposit; a give-up only once the taker paid", async () => {
    const e = await depositEvent(3);
    await db.campaign.update({
      where: { id: e.campaign.id },
      data: {
        approvalStatus: "approved",
        changedAfterTipAt: new Date(),
        changeWithdrawUntil: new Date(Date.now() + DAY),
      },
    });
    const [leaver, giver, taker] = e.pledges;
    await withdraw.withdrawCommitment(actorOf(e.users[0]), { campaignId: e.campaign.id });
    await refunds.refundOwedPledges(e.campaign.id);
    expect(
      refundsOf(leaver.paymentIntentId)
        .map((r) => r.amount)
        .sort((a, b) => a - b),
    ).toEqual([DEPOSIT, PRICE]);

    // a place given up (the markers give-up writes) to someone whose payment has not gone through yet
    await db.pledge.update({ where: { id: taker.id }, data: { charged: false } });
    await db.pledge.update({
      where: { id: giver.id },
      data: { withdrawnAt: new Date(), gaveUpAt: new Date(), handedToId: taker.id },
    });
    await refunds.refundOwedPledges(e.campaign.id);
    expect(refundsOf(giver.paymentIntentId)).toEqual([]);
    await db.pledge.update({ where: { id: taker.id }, data: { charged: true } });
    await Promise.all([refunds.refundOwedPledges(e.campaign.id), refunds.refundOwedPledges()]);
    expect(
      refundsOf(giver.paymentIntentId)
        .map((r) => r.amount)
        .sort((a, b) => a - b),
    ).toEqual([DEPOSIT, PRICE]);
    expect(refundsOf(taker.paymentIntentId)).toEqual([]);
  });
});
