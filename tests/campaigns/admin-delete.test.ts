import { beforeEach, describe, expect, it, vi } from "vitest";
// first: the mocks below hand out its next/headers stand-in to everything imported after it
import { actAs, headersMock } from "@/tests/security/harness";

vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn(), updateTag: vi.fn() }));
vi.mock("next/headers", () => headersMock);

import pg from "pg";
import { db } from "@/lib/db";
import { confirmDemoSetup, createDemoSetupSecret } from "@/lib/payments/demo-gateway";
import { commitToCampaign } from "@/lib/pledges/service";
import { withdrawCommitment } from "@/lib/pledges/withdraw";
import { runCharging } from "@/lib/charging/service";
import { runPayout } from "@/lib/payouts/service";
import { getPayoutsView } from "@/lib/payouts/queries";
import { getAdminDashboard } from "@/lib/campaigns/admin";
import { deleteTestCampaigns } from "@/lib/campaigns/service";
import { KEPT_REMEDY, keptTestEvents } from "@/lib/campaigns/texts";
import { createCampaign, createDemoPayoutAccount, createPledge, createUser } from "@/tests/helpers/factories";

/**
 * Issue 31 item 2: "Delete test events" deleted an event whose backers had been charged, with its
 * pledges and (by cascade) its payout rows; the payments stayed at the provider with no record. An
 * event with money on it (a payment intent, a refund, a saved card not released, a payout) is kept and
 * named; the rest are deleted. Driven through the demo gateway, as the app itself charges and pays.
 */
const { deleteTestEventsAction } = await import("@/app/admin/actions");

type Person = { id: string; email: string; name: string | null; isAdmin: boolean };
const viewer = (u: Person): Person => ({ id: u.id, email: u.email, name: u.name, isAdmin: u.isAdmin });

/** A card saved through the demo checkout's setup, as the commit form does. */
async function demoCard(userId: string) {
  const r = await confirmDemoSetup(userId, {
    clientSecret: createDemoSetupSecret(userId),
    cardNumber: "4242424242424242",
    expMonth: "12",
    expYear: "2034",
    cvc: "123",
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.setupIntent.payment_method;
}

const DAY = 86_400_000;

/** The event: a paid test event, two backers charged $25 each, the organizer paid out. */
async function chargedAndPaidOutTestEvent() {
  const organizer = await createUser();
  await createDemoPayoutAccount(organizer.id, "ready");
  const campaign = await createCampaign({
    creatorId: organizer.id,
    isTest: true,
    goal: 2,
    ticketPriceCents: 2500,
    title: `Paid dry run ${Date.now()}`,
  });
  for (let i = 0; i < 2; i++) {
    const backer = await createUser();
    await commitToCampaign(viewer(backer), {
      campaignId: campaign.id,
      paymentMethodId: await demoCard(backer.id),
    });
  }
  await runCharging(campaign.id);
  await db.campaign.update({
    where: { id: campaign.id },
    data: { fundedAt: new Date(Date.now() - 8 * DAY) },
  });
  const moved = await runPayout(campaign.id);
  expect(moved.map((m) => m.status)).toEqual(["succeeded"]);
  return { organizer, campaign };
}

/** Everything of an event that must survive a refused delete. */
async function snapshot(campaignId: string) {
  const [campaign, pledges, payouts, comments] = await Promise.all([
    db.campaign.findUnique({ where: { id: campaignId } }),
    db.pledge.findMany({ where: { campaignId }, orderBy: { id: "asc" } }),
    db.payout.findMany({ where: { campaignId }, orderBy: { seq: "asc" } }),
    db.comment.findMany({ where: { campaignId }, orderBy: { id: "asc" } }),
  ]);
  return { campaign, pledges, payouts, comments };
}

describe("deleting test events keeps every event with money on it", () => {
  // each test starts with no test event (the ones an earlier test kept become ordinary events)
  beforeEach(async () => {
    await db.campaign.updateMany({ where: { isTest: true }, data: { isTest: false } });
  });

  it("a charged, paid-out test event is kept whole and named, with the way out; a clean one beside it is deleted", async () => {
    const admin = await createUser({ isAdmin: true });
    const { organizer, campaign } = await chargedAndPaidOutTestEvent();
    const pledges = await db.pledge.findMany({ where: { campaignId: campaign.id } });
    expect(pledges.map((p) => [p.chargeStatus, p.paymentIntentId?.startsWith("pi_demo_")])).toEqual([
      ["succeeded", true],
      ["succeeded", true],
    ]);
    const backer = await createUser();
    await db.comment.create({ data: { campaignId: campaign.id, authorId: backer.id, text: "Paid!" } });
    const collected = (await getPayoutsView(organizer)).events[0];
    expect(collected.ledger.collectedCents).toBe(5000);
    expect(collected.paidOutCents).toBeGreaterThan(0);

    const clean = await createCampaign({ isTest: true, title: `Free dry run ${Date.now()}` });
    await createPledge(clean.id, backer.id); // a free commitment: no card, nothing charged
    await db.comment.create({ data: { campaignId: clean.id, authorId: backer.id, text: "Free one" } });
    const real = await createCampaign({ isTest: false });

    // the dashboard's dialog already tells them apart
    const dashboard = await getAdminDashboard();
    expect(dashboard.counts.test).toBe(2);
    expect(dashboard.testEvents).toEqual({ deletable: [clean.title], kept: [campaign.title], keptCount: 1 });

    const before = await snapshot(campaign.id);
    actAs(admin);
    const answer = await deleteTestEventsAction();
    expect(answer).toEqual({ ok: true, data: { deleted: 1, kept: [campaign.title], keptCount: 1 } });

    expect(await snapshot(campaign.id)).toEqual(before); // pledges, payouts, comments untouched
    expect((await getPayoutsView(organizer)).events[0]).toEqual(collected);
    expect(await db.campaign.count({ where: { id: clean.id } })).toBe(0);
    expect(await db.pledge.count({ where: { campaignId: clean.id } })).toBe(0);
    expect(await db.comment.count({ where: { campaignId: clean.id } })).toBe(0);
    expect(await db.campaign.count({ where: { id: real.id } })).toBe(1);

    // again: nothing left to delete, the kept event is named again
    expect(await deleteTestCampaigns(viewer(admin))).toEqual({
      deleted: 0,
      kept: [{ id: campaign.id, title: campaign.title }],
    });
    expect(await snapshot(campaign.id)).toEqual(before);
  });

  it("a refund alone, or a payout row alone, keeps the event", async () => {
    const admin = viewer(await createUser({ isAdmin: true }));
    const refunded = await createCampaign({ isTest: true, ticketPriceCents: 1000 });
    const p = await createPledge(refunded.id);
    // charged once, refunded, card released: the refund is the record
    await db.pledge.update({
      where: { id: p.id },
      data: {
        chargeStatus: "refunded",
        refundId: `re_demo_${p.id}`,
        refundedAt: new Date(),
        withdrawnAt: new Date(),
      },
    });
    const paidOut = await createCampaign({ isTest: true, ticketPriceCents: 1000, status: "charged" });
    await db.payout.create({
      data: { campaignId: paidOut.id, seq: 1, kind: "transfer", amountCents: 900n, accountId: "acct_demo_x" },
    });
    const result = await deleteTestCampaigns(admin);
    expect(result.deleted).toBe(0);
    expect(result.kept.map((k) => k.id).sort()).toEqual([refunded.id, paidOut.id].sort());
    expect(await db.pledge.count({ where: { id: p.id } })).toBe(1);
    expect(await db.payout.count({ where: { campaignId: paidOut.id } })).toBe(1);
  });

  it("a saved card not yet released keeps the event; once the backer withdraws and the card is released, it is deleted", async () => {
    const admin = await createUser({ isAdmin: true });
    const campaign = await createCampaign({
      isTest: true,
      goal: 5,
      ticketPriceCents: 1500,
      title: `Card held ${Date.now()}`,
    });
    const backer = await createUser();
    await commitToCampaign(viewer(backer), {
      campaignId: campaign.id,
      paymentMethodId: await demoCard(backer.id),
    });
    const [pledge] = await db.pledge.findMany({ where: { campaignId: campaign.id } });
    expect([
      pledge.paymentMethodId?.startsWith("pm_demo_"),
      pledge.chargeStatus,
      pledge.paymentIntentId,
    ]).toEqual([true, "none", null]);

    actAs(admin);
    const answer = await deleteTestEventsAction();
    expect(answer).toEqual({ ok: true, data: { deleted: 0, kept: [campaign.title], keptCount: 1 } });
    expect(await db.pledge.findUnique({ where: { id: pledge.id } })).toEqual(pledge);

    await withdrawCommitment(viewer(backer), { campaignId: campaign.id });
    expect((await db.pledge.findUniqueOrThrow({ where: { id: pledge.id } })).paymentMethodId).toBeNull();
    expect(await deleteTestEventsAction()).toEqual({
      ok: true,
      data: { deleted: 1, kept: [], keptCount: 0 },
    });
    expect(await db.campaign.count({ where: { id: campaign.id } })).toBe(0);
  });

  it("a card saved on a pledge while the delete looks (check and delete race) keeps the event", async () => {
    const admin = viewer(await createUser({ isAdmin: true }));
    const campaign = await createCampaign({ isTest: true, ticketPriceCents: 1500 });
    const pledge = await createPledge(campaign.id); // no card yet: the event looks clean
    const other = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await other.connect();
    try {
      // another writer saves a card on the pledge and has not committed yet
      await other.query("BEGIN");
      await other.query(`UPDATE "Pledge" SET "paymentMethodId" = 'pm_demo_racing' WHERE id = $1`, [
        pledge.id,
      ]);
      const deleting = deleteTestCampaigns(admin);
      // the delete has seen the event clean and now waits for the pledge's lock
      for (let i = 0; ; i++) {
        const [{ n }] = await db.$queryRaw<{ n: number }[]>`
          SELECT count(*)::int AS n FROM pg_stat_activity
          WHERE datname = current_database() AND wait_event_type = 'Lock'`;
        if (n > 0) break;
        if (i > 200) throw new Error("the delete never waited for the pledge");
        await new Promise((r) => setTimeout(r, 25));
      }
      await other.query("COMMIT");
      expect(await deleting).toEqual({ deleted: 0, kept: [{ id: campaign.id, title: campaign.title }] });
    } finally {
      await other.end();
    }
    expect((await db.pledge.findUniqueOrThrow({ where: { id: pledge.id } })).paymentMethodId).toBe(
      "pm_demo_racing",
    );
    expect(await db.campaign.count({ where: { id: campaign.id } })).toBe(1);
  });

  it("says so in words: the dialog's answer names the kept events and the way out", async () => {
    expect(keptTestEvents(["Dry run"])).toBe(
      `1 test event was not deleted because money is on it (a charge, a refund, a saved card or a payout): "Dry run". ${KEPT_REMEDY}`,
    );
    const titles = Array.from({ length: 10 }, (_, i) => `E${i}`);
    expect(keptTestEvents(titles, 12)).toContain(`"E8", "E9" and 2 more.`);
    expect(keptTestEvents(["A", "B"])).toContain(`: "A" and "B".`);
    expect(keptTestEvents([])).toBe("");
  });
});
