import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "@/tests/helpers/scale";
import { db } from "@/lib/db";
import { createDemoPayoutAccount } from "@/tests/helpers/factories";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { deliverStripeEvent } from "@/tests/fake-stripe/webhook";
import { fundedPaidCampaign } from "@/tests/charging/helpers";

/**
 * Organizers get paid (issue 23) against the fake Stripe (Connect accounts, transfers, reversals,
 * balance): every organizer's transfers equal their charges − fees − refunds to the cent, once;
 * refunds after a transfer are reversed once; holds and the hold period are kept; a lost answer is
 * re-driven with the same key; replayed transfer webhooks change nothing.
 */
let fake: FakeStripe;
let charging: typeof import("@/lib/charging/service");
let payouts: typeof import("@/lib/payouts/service");
let accounts: typeof import("@/lib/payouts/accounts");
let payable: typeof import("@/lib/access/payable");
let ledger: typeof import("@/lib/payouts/ledger");
let campaigns: typeof import("@/lib/campaigns/service");
let gatewayOf: typeof import("@/lib/payments/gateway");
let refunds: typeof import("@/lib/ledger/refunds");
let webhook: (req: Request) => Promise<Response>;

const BPS = 250;
const FIXED = 30;

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
  payable = await import("@/lib/access/payable");
  ledger = await import("@/lib/payouts/ledger");
  campaigns = await import("@/lib/campaigns/service");
  gatewayOf = await import("@/lib/payments/gateway");
  refunds = await import("@/lib/ledger/refunds");
  ({ POST: webhook } = await import("@/app/api/stripe/webhook/route"));
});
afterAll(async () => {
  await fake.close();
});

const DAY = 86_400_000;

/** An organizer whose Connect account finished onboarding (payouts need a confirmed address). */
async function readyOrganizer(user: { id: string; email: string }) {
  await db.user.update({ where: { id: user.id }, data: { emailVerified: new Date() } });
  const { url } = await accounts.startPayoutOnboarding(user);
  expect(url).toMatch(/^https:\/\/connect\.stripe\.test\/setup\/acct_/);
  const row = await db.payoutAccount.findUniqueOrThrow({ where: { userId: user.id } });
  fake.setAccountState(row.accountId, "ready");
  expect((await accounts.refreshPayoutAccount(user.id)).status).toBe("ready");
  return row.accountId;
}

/** A paid event of `pledges` backers, charged, its tip `daysAgo` days ago. */
async function chargedEvent(pledges: number, opts: { priceCents?: number; daysAgo?: number } = {}) {
  const f = await fundedPaidCampaign(fake, { pledges, priceCents: opts.priceCents ?? 2500 });
  const accountId = await readyOrganizer(f.creator);
  await charging.runCharging(f.campaign.id);
  await db.campaign.update({
    where: { id: f.campaign.id },
    // the fee terms lib/campaigns/service createCampaign stores from PLATFORM_FEE_*
    data: {
      fundedAt: new Date(Date.now() - (opts.daysAgo ?? 8) * DAY),
      platformFeeBps: BPS,
      platformFeeFixedCents: FIXED,
    },
  });
  return { ...f, accountId };
}

/** Refunds pledges the way a withdrawal after a change does (lib/ledger/refunds refundOwedPledges). */
async function refund(pledgeIds: string[]) {
  for (const id of pledgeIds) {
    const p = await db.pledge.findUniqueOrThrow({ where: { id } });
    expect(
      await refunds.refundPledge({ ...p, paymentIntentId: p.paymentIntentId! }, gatewayOf.getGateway()),
    ).toBe(true);
  }
}

const platformFee = (cents: number) => Math.round((cents * BPS) / 10_000) + FIXED;
const transfersTo = (accountId: string) =>
  [...fake.state.transfers.values()].filter((t) => t.destination === accountId);

const deliver = (type: string, object: object) => deliverStripeEvent(webhook, type, object);

// the heavy scenario's size (tests/helpers/scale.ts): 1,000 charges at full size
const PER_EVENT = scaled(200, 40);

describe("paying organizers", () => {
  it(`${(5 * PER_EVENT).toLocaleString("en-US")} charges on 5 organizers' events: each organizer's transfers equal charges − fees − refunds to the cent, once`, async () => {
    const prices = [2500, 1999, 4200, 1050, 777];
    const events = [];
    for (const price of prices) events.push(await chargedEvent(PER_EVENT, { priceCents: price }));
    // three refunds per event before the payout (withdrawals after a change)
    for (const e of events) await refund(e.pledges.slice(0, 3).map((p) => p.id));

    const due = await payouts.listDuePayouts();
    for (const e of events) expect(due).toContain(e.campaign.id);
    await Promise.all(events.map((e) => payouts.runPayout(e.campaign.id)));
    // run again, concurrently: nothing more moves
    await Promise.all(
      events.flatMap((e) => [payouts.runPayout(e.campaign.id), payouts.runPayout(e.campaign.id)]),
    );

    for (const [i, e] of events.entries()) {
      const price = prices[i];
      const kept = PER_EVENT - 3;
      const expected = kept * price - kept * platformFee(price) - PER_EVENT * fake.feeOf(price);
      const sent = transfersTo(e.accountId);
      expect(sent.map((t) => t.amount)).toEqual([expected]);
      const rows = await db.payout.findMany({ where: { campaignId: e.campaign.id } });
      expect(rows.map((r) => [r.kind, r.status, Number(r.amountCents)])).toEqual([
        ["transfer", "succeeded", expected],
      ]);
      expect(fake.moveCount(rows[0].id)).toBe(1);
      const l = await ledger.ledgerOf(db, e.campaign.id);
      expect(l).toMatchObject({
        collectedCents: PER_EVENT * price,
        refundedCents: 3 * price,
        platformFeeCents: kept * platformFee(price),
        processingFeeCents: PER_EVENT * fake.feeOf(price),
        dueCents: 0,
      });
      // the organizer is told once
      expect(await db.emailOutbox.count({ where: { dedupeKey: `payout-sent:${rows[0].id}` } })).toBe(1);
    }
    // a heavy test's own budget (issue 31): 26 s of the default 30 s alone; a busy 2-core machine needs more
  }, 180_000);

  it("a refund after the payout is taken back once, by a reversal of the transfer", async () => {
    const e = await chargedEvent(10, { priceCents: 3000 });
    await payouts.runPayout(e.campaign.id);
    const [transfer] = transfersTo(e.accountId);
    await refund([e.pledges[0].id, e.pledges[1].id]);
    expect(await payouts.listDuePayouts()).toContain(e.campaign.id);
    await Promise.all([payouts.runPayout(e.campaign.id), payouts.runPayout(e.campaign.id)]);
    await payouts.runPayout(e.campaign.id);
    const rows = await db.payout.findMany({ where: { campaignId: e.campaign.id }, orderBy: { seq: "asc" } });
    // the refunded charges' money back, less the platform fee no longer kept on them
    const back = 2 * 3000 - 2 * platformFee(3000);
    expect(rows.map((r) => [r.kind, r.status, Number(r.amountCents)])).toEqual([
      ["transfer", "succeeded", transfer.amount],
      ["reversal", "succeeded", back],
    ]);
    expect(fake.state.transfers.get(transfer.id)!.amount_reversed).toBe(back);
    expect(fake.moveCount(rows[1].id)).toBe(1);
    expect((await ledger.ledgerOf(db, e.campaign.id)).dueCents).toBe(0);
  });

  it("a refund that cannot be taken back from the organizer is flagged to admins, not dropped", async () => {
    const e = await chargedEvent(5, { priceCents: 2000 });
    await payouts.runPayout(e.campaign.id);
    const [transfer] = transfersTo(e.accountId);
    // the organizer's money is gone from their account: Stripe refuses to reverse it
    fake.state.transfers.get(transfer.id)!.amount_reversed = transfer.amount;
    await refund([e.pledges[0].id]);
    const made = await payouts.runPayout(e.campaign.id);
    expect(made).toMatchObject([{ status: "failed" }]);
    const owed = 2000 - platformFee(2000);
    const c = await db.campaign.findUniqueOrThrow({ where: { id: e.campaign.id } });
    expect(Number(c.payoutShortfallCents)).toBe(owed);
    const { getPayoutAttention } = await import("@/lib/payouts/queries");
    const attention = await getPayoutAttention();
    expect(attention.shortfalls).toContainEqual({ id: e.campaign.id, title: e.campaign.title, cents: owed });
    expect(attention.failed.some((f) => f.campaignId === e.campaign.id && f.kind === "reversal")).toBe(true);
    // flagged once: later sweeps do not try (and fail) again every minute
    expect(await payouts.runPayout(e.campaign.id)).toEqual([]);
    expect(await db.payout.count({ where: { campaignId: e.campaign.id, kind: "reversal" } })).toBe(1);
  });

  it("waits for the hold, an admin's hold and a ready account; a paid event is approved only once its organizer can be paid", async () => {
    const early = await chargedEvent(3, { daysAgo: 2 });
    expect(await payouts.runPayout(early.campaign.id)).toEqual([]);

    const held = await chargedEvent(3);
    const admin = await db.user.create({
      data: { email: `admin-${Date.now()}@example.test`, isAdmin: true },
    });
    await expect(
      payouts.setPayoutHold({ id: held.creator.id, isAdmin: false }, held.campaign.id, "x"),
    ).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(
      payouts.setPayoutHold({ id: admin.id, isAdmin: true }, held.campaign.id, "  "),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await payouts.setPayoutHold({ id: admin.id, isAdmin: true }, held.campaign.id, "Chargeback under review");
    expect(await payouts.runPayout(held.campaign.id)).toEqual([]);
    await payouts.setPayoutHold({ id: admin.id, isAdmin: true }, held.campaign.id, null);
    expect(await payouts.runPayout(held.campaign.id)).toMatchObject([{ status: "succeeded" }]);

    const restricted = await chargedEvent(3);
    fake.setAccountState(restricted.accountId, "restricted");
    await accounts.refreshPayoutAccount(restricted.creator.id);
    expect(await payouts.runPayout(restricted.campaign.id)).toEqual([]);
    expect(
      await db.emailOutbox.count({
        where: { dedupeKey: { startsWith: `payout-account:${restricted.creator.id}:` } },
      }),
    ).toBe(1);

    // the approval gate
    const organizer = await db.user.create({ data: { email: `gate-${Date.now()}@example.test` } });
    const pending = await db.campaign.create({
      data: {
        title: "Paid, not approved yet",
        description: "A paid event waiting for approval by an admin.",
        goal: 5,
        ticketPriceCents: 1500,
        deadline: new Date(Date.now() + 5 * DAY),
        creatorId: organizer.id,
        creatorEmail: organizer.email,
      },
    });
    const approve = () =>
      campaigns.setApprovalStatus(
        { id: admin.id, email: admin.email, name: null, isAdmin: true },
        {
          campaignId: pending.id,
          approvalStatus: "approved",
        },
      );
    await expect(approve()).rejects.toMatchObject({
      code: "CONFLICT",
      message: accounts.PAYOUT_TEXTS.notReady,
    });
    await readyOrganizer(organizer);
    await expect(approve()).resolves.toMatchObject({ approvalStatus: "approved" });
  });

  it("a transfer whose answer was lost is re-driven with its key (replayed, not repeated); replayed transfer webhooks change nothing", async () => {
    const e = await chargedEvent(4);
    // Stripe executes the transfer but the answer is lost, and every retry of the run meets a 500
    // (one more than the run's attempts: a dropped connection may be sent again below the SDK):
    // the run ends not knowing (as a process killed there would)
    fake.inject({ match: "POST /v1/transfers", kind: "drop-after", times: 1 });
    fake.inject({ match: "POST /v1/transfers", kind: "500", times: 5 });
    const first = await payouts.runPayout(e.campaign.id);
    expect(first).toEqual([]);
    const [claimed] = await db.payout.findMany({ where: { campaignId: e.campaign.id } });
    expect(claimed.status).toBe("processing");
    expect(await payouts.listDuePayouts()).toContain(e.campaign.id);
    await payouts.runPayout(e.campaign.id);
    const row = await db.payout.findUniqueOrThrow({ where: { id: claimed.id } });
    expect(row.status).toBe("succeeded");
    expect(fake.moveCount(row.id)).toBe(1);
    const sends = fake.state.requests.filter(
      (r) => r.path === "/v1/transfers" && r.idempotencyKey === payouts.payoutKey(e.campaign.id, 1),
    );
    expect(sends.at(-1)!.replayed).toBe(true);
    expect(transfersTo(e.accountId)).toHaveLength(1);

    const t = fake.state.transfers.get(row.providerId!)!;
    for (let i = 0; i < 20; i++) {
      const res = await deliver(i % 2 ? "transfer.updated" : "transfer.created", t);
      expect(res.status).toBe(200);
    }
    expect(await db.payout.count({ where: { campaignId: e.campaign.id } })).toBe(1);
    expect(await db.emailOutbox.count({ where: { dedupeKey: `payout-sent:${row.id}` } })).toBe(1);
    // an account.updated webhook keeps the organizer's account state current
    await deliver("account.updated", fake.setAccountState(e.accountId, "restricted"));
    expect((await accounts.getPayoutAccount(e.creator.id)).status).toBe("restricted");
  });

  it("after review: a refused transfer re-reads the account and waits; a claim older than Stripe's key lifetime is looked up, not re-sent; a demo account does not count once Stripe is on", async () => {
    // the account was restricted at Stripe and its webhook lost: the refusal updates it, no retry every minute
    const e = await chargedEvent(3);
    fake.setAccountState(e.accountId, "restricted");
    expect(await payouts.runPayout(e.campaign.id)).toMatchObject([{ status: "failed" }]);
    expect((await accounts.getPayoutAccount(e.creator.id)).status).toBe("restricted");
    fake.setAccountState(e.accountId, "ready");
    await accounts.refreshPayoutAccount(e.creator.id);
    expect(await payouts.runPayout(e.campaign.id)).toEqual([]); // an hour after the refusal, not before
    await db.payout.updateMany({
      where: { campaignId: e.campaign.id },
      data: { completedAt: new Date(Date.now() - 2 * 3_600_000) },
    });
    expect(await payouts.runPayout(e.campaign.id)).toMatchObject([{ status: "succeeded" }]);

    // a claim whose answer was lost a day ago: Stripe has forgotten the key, the transfer is found by its group
    const old = await chargedEvent(3);
    fake.inject({ match: "POST /v1/transfers", kind: "drop-after", times: 1 });
    fake.inject({ match: "POST /v1/transfers", kind: "500", times: 5 });
    await payouts.runPayout(old.campaign.id);
    const [row] = await db.payout.findMany({ where: { campaignId: old.campaign.id } });
    expect(row.status).toBe("processing");
    await db.payout.update({
      where: { id: row.id },
      data: { createdAt: new Date(Date.now() - 25 * 3_600_000) },
    });
    for (const k of [...fake.state.idempotent.keys()])
      if (k.includes(payouts.payoutKey(old.campaign.id, 1))) fake.state.idempotent.delete(k);
    await payouts.runPayout(old.campaign.id);
    expect((await db.payout.findUniqueOrThrow({ where: { id: row.id } })).status).toBe("succeeded");
    expect(fake.moveCount(row.id)).toBe(1);

    // demo data on a Stripe deployment: the old demo account neither passes the gate nor is paid
    const organizer = await db.user.create({
      data: { email: `demo-then-stripe-${Date.now()}@example.test`, emailVerified: new Date() },
    });
    await createDemoPayoutAccount(organizer.id);
    expect(await payable.canBePaid(db, organizer.id)).toBe(false);
    await accounts.startPayoutOnboarding(organizer);
    const fresh = await db.payoutAccount.findUniqueOrThrow({ where: { userId: organizer.id } });
    expect([fresh.provider, fresh.status, fresh.accountId.startsWith("acct_demo_")]).toEqual([
      "stripe",
      "pending",
      false,
    ]);
  });
});
