import fs from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/access/viewer";
import { demoGateway, demoProcessingFee } from "@/lib/payments/demo-gateway";
import { paymentDueBy, recoveryDays } from "@/lib/ledger/payment-window";
import { runCharging } from "@/lib/charging/service";
import { refundOwedPledges } from "@/lib/ledger/refunds";
import { giveUpPlace } from "@/lib/pledges/give-up";
import { getPayoutsCsv, getPayoutsView } from "@/lib/payouts/queries";
import { getCommitmentsCsv } from "@/lib/pledges/commitments-csv";
import { listMyCommitments } from "@/lib/pledges/mine";
import { listManagedPledges } from "@/lib/pledges/manage-queries";
import { payoutHoldDays } from "@/lib/payouts/ledger";
import { referenceStanding } from "../helpers/standing-reference";
import { asViewer, postCheckAndCharge, type ChargeSummary } from "@/tests/helpers/check-and-charge";

// Route handlers resolve the viewer from the session; the test chooses who is asking.
let viewer: Viewer | null = null;
vi.mock("@/lib/access/viewer", () => ({
  getViewer: async () => viewer,
  requireUser: async () => viewer,
}));

const { POST: checkAndChargeRoute } = await import("@/app/api/check-and-charge/route");
const { seedDemo } = await import("@/scripts/demo-data");

/**
 * The demo data (issue 31): every money figure in it is one the app produced — each charge a payment
 * intent of the demo gateway, each payout a transfer the payout sweeper made — so what check-and-charge,
 * the event pages, /payouts and the gateway say agree, and what backers do next (give up a place,
 * be refunded) works on the seeded commitments as on any other.
 */
const migrations = path.join(__dirname, "../../prisma/migrations");
const DAY = 86_400_000;
const MINUTE = 60_000;

async function checkAndCharge(campaignId: string, as: Viewer | null): Promise<ChargeSummary> {
  viewer = as;
  return postCheckAndCharge(checkAndChargeRoute, campaignId);
}

async function userByEmail(email: string) {
  return asViewer(await db.user.findUniqueOrThrow({ where: { email } }));
}
const event = (title: string) => db.campaign.findFirstOrThrow({ where: { title } });
/** The demo gateway's payment intents, with the pledge and event each was made for. */
async function intents() {
  return (await db.demoPaymentIntent.findMany()).map((pi) => ({
    ...pi,
    meta: pi.metadata as { pledgeId: string; campaignId: string; attempt: string },
  }));
}

/** The given-up place as the organizer's CSV, the giver's My commitments and the /payouts CSV tell it. */
async function expectGiverStory(
  campaignId: string,
  giver: Viewer,
  organizer: Viewer,
  want: { csv: string; mine: RegExp; refund: RegExp; refunded: string; pending: string },
) {
  const csv = (await getCommitmentsCsv(campaignId, organizer))!.csv;
  const giverLine = csv.split("\r\n").find((l) => l.includes(`"${giver.email}"`))!;
  expect(giverLine).toContain(`"${want.csv}"`);
  const mine = (await listMyCommitments(giver)).find((m) => m.campaignId === campaignId)!;
  expect(mine.stateText).toMatch(want.mine);
  expect(mine.refund?.text).toMatch(want.refund);
  expect(mine.phase.label).toBe("Gave up place");
  const payouts = (await getPayoutsCsv(organizer)).split("\r\n").map((l) => l.split(","));
  const header = payouts[0].map((h) => h.replace(/"/g, ""));
  const row = payouts.find((cells) => cells[0].includes("Handmade Pasta Workshop"))!;
  expect(row[header.indexOf("Refunded (USD)")]).toContain(want.refunded);
  expect(row[header.indexOf("Refunds pending (USD)")]).toContain(want.pending);
}

const WINE = "Natural Wine Tasting Evening";
const ROOFTOP = "Rooftop Cinema: Summer Classics";
const PASTA = "Handmade Pasta Workshop";
const SALSA = "Riverside Salsa Social";

let seededAt: number;
beforeAll(async () => {
  seededAt = Date.now();
  expect(await seedDemo()).toBe(true);
}, 180_000);

describe("the demo data's money is the app's own", () => {
  it("every charge is a payment the demo gateway made, for the amount the pledge records, and no payment is unrecorded", async () => {
    const charged = await db.pledge.findMany({
      where: { chargeType: "paid", charged: true },
      include: { campaign: { select: { depositCents: true } } },
    });
    // the wine tasting's ten, the rooftop cinema's fourteen, the pasta workshop's ten, the salsa social's two
    expect(charged).toHaveLength(36);
    const all = await intents();
    const byId = new Map(all.map((pi) => [pi.id, pi]));
    for (const p of charged) {
      const pi = p.paymentIntentId ? byId.get(p.paymentIntentId) : undefined;
      expect(pi, `pledge ${p.id} has a payment at the gateway`).toBeDefined();
      expect(pi!.status).toBe("succeeded");
      // issue 36: a show-up deposit is charged in the same payment as the ticket
      expect(pi!.amountCents).toBe(p.amountCents + p.campaign.depositCents);
      expect(pi!.meta).toMatchObject({ pledgeId: p.id, campaignId: p.campaignId });
      expect(pi!.refunded).toBe(false);
      // the processing fee is the gateway's answer for that payment
      expect(p.processingFeeCents).toBe(await demoGateway().processingFee(pi!.id));
      expect(p.processingFeeCents).toBe(demoProcessingFee(pi!.amountCents));
    }
    // and every payment that went through belongs to a charged pledge (nothing taken unrecorded)
    const recorded = new Set(charged.map((p) => p.paymentIntentId));
    for (const pi of all.filter((i) => i.status === "succeeded"))
      expect(recorded.has(pi.id), `payment ${pi.id} is recorded`).toBe(true);
  });

  it("check-and-charge answers, for every tipped paid event, what its page and manage page show", async () => {
    const organizer = await userByEmail("organizer@pactnexus.demo");
    // (the salsa social's deposits: its own test below)
    const tipped = await db.campaign.findMany({
      where: { fundedAt: { not: null }, ticketPriceCents: { gt: 0 }, depositCents: 0 },
      orderBy: { fundedAt: "asc" },
    });
    expect(tipped.map((c) => c.title)).toEqual([WINE, ROOFTOP, PASTA]);
    const byId = new Map((await intents()).map((pi) => [pi.id, pi]));
    const expected: Record<string, [charged: number, failed: number]> = {
      [WINE]: [10, 0],
      [ROOFTOP]: [14, 1],
      [PASTA]: [10, 0],
    };
    for (const c of tipped) {
      const summary = await checkAndCharge(c.id, organizer);
      expect([summary.totalCharged, summary.totalFailed], c.title).toEqual(expected[c.title]);
      // the manage page's "N charged, $X collected" and the event page's count
      expect(summary.totalCharged).toBe(c.totalCharged);
      expect(summary.totalCharged + summary.totalFailed).toBe(c.committedCount);
      expect(summary.successful).toHaveLength(summary.totalCharged);
      const collected = summary.successful.reduce((sum, s) => {
        const pi = byId.get(s.paymentIntentId);
        expect(pi?.status).toBe("succeeded");
        expect(pi?.meta.campaignId).toBe(c.id);
        return sum + (pi?.amountCents ?? 0);
      }, 0);
      expect(collected).toBe(Number(c.totalChargedCents));
      // anyone asking gets the same figures (SPEC's four keys), and asking charges nothing more
      const anonymous = await checkAndCharge(c.id, null);
      expect([anonymous.totalCharged, anonymous.totalFailed]).toEqual(expected[c.title]);
    }
    expect(await db.demoPaymentIntent.count()).toBe(byId.size);
  });

  it("/payouts counts what the gateway moved: the wine tasting paid out by the sweeper after its hold, the others pending, nothing refunded that was not", async () => {
    const organizer = await userByEmail("organizer@pactnexus.demo");
    const view = await getPayoutsView(organizer);
    expect(view.account.status).toBe("ready");
    const all = await intents();
    const rows = new Map(view.events.map((e) => [e.title, e]));
    expect([...rows.keys()].sort()).toEqual([PASTA, ROOFTOP, SALSA, WINE].sort());
    for (const e of view.events.filter((e) => e.title !== SALSA)) {
      const mine = all.filter((pi) => pi.meta.campaignId === e.campaignId && pi.status === "succeeded");
      expect(e.ledger.collectedCents, e.title).toBe(mine.reduce((s, pi) => s + pi.amountCents, 0));
      expect(e.ledger.processingFeeCents).toBe(
        mine.reduce((s, pi) => s + demoProcessingFee(pi.amountCents), 0),
      );
      // counted as refunded only what the gateway refunded; nothing waits to be refunded
      expect(e.ledger.refundedCents).toBe(
        mine.filter((pi) => pi.refunded).reduce((s, pi) => s + pi.amountCents, 0),
      );
      expect(e.ledger.owedBackCents).toBe(0);
      expect(e.ledger.feesUnknown).toBe(0);
      expect(e.ledger.netCents).toBeGreaterThan(0);
    }
    const wine = rows.get(WINE)!;
    expect(wine.paidOutCents).toBe(wine.ledger.netCents);
    expect(wine.pendingCents).toBe(0);
    const transfers = view.movements.filter((m) => m.campaignId === wine.campaignId);
    expect(transfers).toHaveLength(1);
    expect(transfers[0]).toMatchObject({
      kind: "transfer",
      status: "succeeded",
      amountCents: wine.ledger.netCents,
    });
    expect(transfers[0].providerId).toMatch(/^tr_demo_/);
    // made by the sweeper's first look after the hold (it looks once a minute; the seed once a day)
    const paidAt = new Date(transfers[0].at).getTime();
    const holdEnd = new Date(wine.fundedAt).getTime() + payoutHoldDays() * DAY;
    expect(paidAt).toBeGreaterThanOrEqual(holdEnd);
    expect(paidAt).toBeLessThan(holdEnd + DAY);
    for (const title of [ROOFTOP, PASTA]) {
      const e = rows.get(title)!;
      expect(e.paidOutCents, title).toBe(0);
      expect(e.pendingCents).toBe(e.ledger.netCents);
      expect(e.nextPayoutAt).toBe(e.availableAt);
      expect(new Date(e.availableAt).getTime()).toBeGreaterThan(seededAt);
    }
    expect(view.movements).toHaveLength(1);
  });

  it("tells the README's story: Alice's payment on the rooftop cinema failed and is hers to pay; Ben's on the wine tasting was dropped when its window closed", async () => {
    const [alice, ben] = await Promise.all([
      userByEmail("alice@pactnexus.demo"),
      userByEmail("ben@pactnexus.demo"),
    ]);
    const rooftop = await event(ROOFTOP);
    const mine = await db.pledge.findFirstOrThrow({ where: { campaignId: rooftop.id, userId: alice.id } });
    expect(mine).toMatchObject({
      chargeStatus: "failed",
      chargeFailureCode: "card_declined",
      chargeAttempts: 2, // the charge at the tip and the recovery pass's one retry a day later
      withdrawnAt: null,
      cardLast4: "0341",
    });
    expect(Math.abs(mine.paymentFailedAt!.getTime() - rooftop.fundedAt!.getTime())).toBeLessThan(MINUTE);
    expect(paymentDueBy(mine.paymentFailedAt!, rooftop.startsAt).getTime()).toBeGreaterThan(Date.now());
    const attempts = (await intents()).filter((pi) => pi.meta.pledgeId === mine.id);
    expect(attempts.map((pi) => [pi.meta.attempt, pi.status, pi.failureCode])).toEqual(
      expect.arrayContaining([
        ["1", "failed", "card_declined"],
        ["2", "failed", "card_declined"],
      ]),
    );
    expect(attempts).toHaveLength(2);

    const wine = await event(WINE);
    const bens = await db.pledge.findFirstOrThrow({ where: { campaignId: wine.id, userId: ben.id } });
    expect(bens.chargeStatus).toBe("failed");
    expect(bens.droppedAt).not.toBeNull();
    expect(bens.withdrawnAt).toEqual(bens.droppedAt);
    expect(bens.paymentMethodId).toBeNull(); // his card was released
    const windowClosed = bens.paymentFailedAt!.getTime() + recoveryDays() * DAY;
    expect(bens.droppedAt!.getTime()).toBeGreaterThanOrEqual(windowClosed);
    expect(bens.droppedAt!.getTime()).toBeLessThan(windowClosed + DAY);

    // the pasta workshop is full, paid, with three waiting, Alice first and nobody waiting charged
    const pasta = await event(PASTA);
    expect([pasta.committedCount, pasta.capacity, pasta.waitlistCount, pasta.totalCharged]).toEqual([
      10, 10, 3, 10,
    ]);
    const waiting = await db.pledge.findMany({
      where: { campaignId: pasta.id, waitlistedAt: { not: null }, withdrawnAt: null },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(waiting).toHaveLength(3);
    expect(waiting[0].userId).toBe(alice.id);
    expect(waiting.every((p) => p.chargeStatus === "none" && p.paymentMethodId)).toBe(true);
    const games = await event("Board Game Marathon");
    expect(games.hasConditions).toBe(true);
    expect(await db.pledge.count({ where: { campaignId: games.id, memberSince: null } })).toBe(5);
    const honey = await event("Bulk Order: Local Honey");
    expect([honey.status, honey.committedCount, honey.goal, honey.earlyGoAhead]).toEqual([
      "pending",
      39,
      40,
      true,
    ]);
  });

  it("keeps the app's order of events: commitments before their charge, charges after the tip, the tip before the deadline, nothing in the future", async () => {
    const now = Date.now();
    const pledges = await db.pledge.findMany({ include: { campaign: true } });
    for (const p of pledges) {
      const c = p.campaign;
      expect(p.createdAt.getTime()).toBeLessThanOrEqual(now);
      if (p.chargedAt) {
        expect(p.chargedAt.getTime(), c.title).toBeGreaterThanOrEqual(p.createdAt.getTime());
        expect(p.chargedAt.getTime()).toBeGreaterThanOrEqual(c.fundedAt!.getTime());
        expect(p.chargedAt.getTime()).toBeLessThanOrEqual(now);
      }
      for (const at of [p.paymentFailedAt, p.droppedAt, p.withdrawnAt, p.chargeClaimedAt])
        if (at) expect(at.getTime()).toBeLessThanOrEqual(now);
    }
    for (const c of await db.campaign.findMany({ where: { fundedAt: { not: null } } })) {
      expect(c.fundedAt!.getTime(), c.title).toBeLessThan(c.deadline.getTime());
      expect(c.fundedAt!.getTime()).toBeGreaterThan(c.createdAt.getTime());
      expect(c.chargedAt!.getTime()).toBeGreaterThanOrEqual(c.fundedAt!.getTime());
      expect(c.chargedAt!.getTime()).toBeLessThanOrEqual(now);
    }
    for (const pi of await db.demoPaymentIntent.findMany())
      expect(pi.createdAt.getTime()).toBeLessThanOrEqual(now);
  });

  it("a seeded backer who gives up their place is refunded once Alice, first in line, has paid", async () => {
    const pasta = await event(PASTA);
    const alice = await userByEmail("alice@pactnexus.demo");
    const giverPledge = await db.pledge.findFirstOrThrow({
      where: { campaignId: pasta.id, charged: true, withdrawnAt: null },
      orderBy: { createdAt: "asc" },
      include: { user: true },
    });
    const giver = asViewer(giverPledge.user);
    expect(await giveUpPlace(giver, { campaignId: pasta.id })).toEqual({ refundPending: true });
    const organizer = await userByEmail("organizer@pactnexus.demo");
    // issue 32: every surface tells the same story of the given-up place — its refund is pending
    await expectGiverStory(pasta.id, giver, organizer, {
      csv: "Gave up place, refund pending (refund once the place is paid for)",
      mine: /^Gave up your place on [^—]+$/,
      refund: /^Refund of \$35\.00 to Visa ·\d{4}: waiting for your place to be taken$/,
      refunded: "0.00",
      pending: "35.00",
    });

    // the charge job charges Alice's promotion; the refund sweeper then refunds the giver
    await runCharging(pasta.id);
    const alices = await db.pledge.findFirstOrThrow({
      where: { campaignId: pasta.id, userId: alice.id, withdrawnAt: null },
    });
    expect(alices).toMatchObject({ waitlistedAt: null, chargeStatus: "succeeded" });
    expect(await refundOwedPledges(pasta.id)).toBe(1);
    const refunded = await db.pledge.findUniqueOrThrow({ where: { id: giverPledge.id } });
    expect(refunded.chargeStatus).toBe("refunded");
    expect(refunded.refundId).toBe(`re_demo_${giverPledge.paymentIntentId!.slice("pi_demo_".length)}`);
    const pi = await db.demoPaymentIntent.findUniqueOrThrow({ where: { id: giverPledge.paymentIntentId! } });
    expect(pi.refunded).toBe(true);

    // /payouts counts it refunded now that it is, and check-and-charge still matches the page
    await expectGiverStory(pasta.id, giver, organizer, {
      csv: "Gave up place, refunded",
      mine: /^Gave up your place on [^—]+$/,
      refund: /^Refunded \$35\.00 to Visa ·\d{4}$/,
      refunded: "35.00",
      pending: "0.00",
    });
    const row = (await getPayoutsView(organizer)).events.find((e) => e.campaignId === pasta.id)!;
    expect(row.ledger.refundedCents).toBe(3500);
    expect(row.ledger.owedBackCents).toBe(0);
    expect(row.ledger.collectedCents).toBe(11 * 3500);
    const after = await db.campaign.findUniqueOrThrow({ where: { id: pasta.id } });
    const summary = await checkAndCharge(pasta.id, organizer);
    expect(summary.totalCharged).toBe(after.committedCount);
    expect(summary.successful.map((s) => s.userId)).toContain(alice.id);
  });

  it("issue 32: every seeded commitment's standing is what its markers said, by the trigger and by the migration's backfill", async () => {
    const read = () =>
      db.pledge.findMany({
        orderBy: { id: "asc" },
        select: {
          id: true,
          standing: true,
          withdrawnAt: true,
          waitlistedAt: true,
          memberSince: true,
          minPeople: true,
          conditionReleasedAt: true,
          waitlistClosedAt: true,
          gaveUpAt: true,
          droppedAt: true,
        },
      });
    const rows = await read();
    const markers = (r: (typeof rows)[number]) => ({
      withdrawnAt: r.withdrawnAt !== null,
      waitlistedAt: r.waitlistedAt !== null,
      memberSince: r.memberSince !== null,
      minPeople: r.minPeople ?? undefined,
      conditionReleasedAt: r.conditionReleasedAt !== null,
      waitlistClosedAt: r.waitlistClosedAt !== null,
      gaveUpAt: r.gaveUpAt !== null,
      droppedAt: r.droppedAt !== null,
    });
    for (const r of rows) expect(r.standing, r.id).toBe(referenceStanding(markers(r)));
    // the demo shows the standings a newcomer meets: in, waiting, withdrawn, given up, dropped
    for (const s of ["in", "waiting", "withdrawn", "gave_up", "dropped"])
      expect(
        rows.map((r) => r.standing),
        s,
      ).toContain(s);
    const backfill = fs
      .readFileSync(
        path.join(
          migrations,
          fs.readdirSync(migrations).find((d) => d.endsWith("_pledge_standing"))!,
          "migration.sql",
        ),
        "utf8",
      )
      .match(/UPDATE "Pledge" SET "standing" = [^;]+;/)![0];
    await db.$transaction([
      db.$executeRawUnsafe(`ALTER TABLE "Pledge" DISABLE TRIGGER pn_standing`),
      db.$executeRawUnsafe(`ALTER TABLE "Pledge" DROP CONSTRAINT "Pledge_standing_charge_check"`),
      db.$executeRawUnsafe(`UPDATE "Pledge" SET "standing" = 'in'`),
      db.$executeRawUnsafe(backfill),
      db.$executeRawUnsafe(`ALTER TABLE "Pledge" ENABLE TRIGGER pn_standing`),
      db.$executeRawUnsafe(
        `ALTER TABLE "Pledge" ADD CONSTRAINT "Pledge_standing_charge_check" CHECK (("chargeStatus" NOT IN ('processing', 'succeeded', 'refunded') AND "charged" = false) OR "standing" IN ('in', 'withdrawn', 'gave_up', 'dropped'))`,
      ),
    ]);
    expect((await read()).map((r) => [r.id, r.standing])).toEqual(rows.map((r) => [r.id, r.standing]));
  });

  it("issue 36: the salsa social started hours ago with a $10 deposit — Chloe checked in, hers refunded once by a partial refund; Diego's held", async () => {
    const salsa = await event(SALSA);
    expect(salsa.depositCents).toBe(1000);
    expect(salsa.startsAt!.getTime()).toBeLessThan(seededAt);
    expect(salsa.startsAt!.getTime()).toBeGreaterThan(seededAt - 6 * 3_600_000);
    const [chloe, diego] = await Promise.all([
      userByEmail("chloe@pactnexus.demo"),
      userByEmail("diego@pactnexus.demo"),
    ]);
    const place = async (who: Viewer) => {
      const p = await db.pledge.findFirstOrThrow({ where: { campaignId: salsa.id, userId: who.id } });
      const rows = await db.moneyMovement.findMany({ where: { pledgeId: p.id }, orderBy: { id: "asc" } });
      const pi = await db.demoPaymentIntent.findUniqueOrThrow({ where: { id: p.paymentIntentId! } });
      const mine = (await listMyCommitments(who)).find((m) => m.campaignId === salsa.id)!;
      return { p, rows, pi, mine };
    };
    const c = await place(chloe);
    const key = `pledge-${c.p.id}-attempt-1`;
    expect(c.rows.map((r) => [r.kind, r.purpose, r.state, Number(r.amountCents), r.idempotencyKey])).toEqual([
      ["charge", "ticket", "succeeded", 1500, key],
      ["charge", "deposit", "succeeded", 1000, `${key}-deposit`],
      ["refund", "deposit", "succeeded", 1000, `deposit-refund-${c.p.id}`],
    ]);
    expect(c.pi).toMatchObject({ amountCents: 2500, refundedCents: 1000, refunded: false });
    expect(await db.checkIn.count({ where: { campaignId: salsa.id } })).toBe(1);
    expect(c.mine.deposit).toMatchObject({ state: "refunded" });
    const d = await place(diego);
    expect(d.rows.map((r) => [r.purpose, r.kind, r.state])).toEqual([
      ["ticket", "charge", "succeeded"],
      ["deposit", "charge", "succeeded"],
    ]);
    expect(d.mine.deposit).toMatchObject({ state: "held" });
    const ledger = (await getPayoutsView(await userByEmail("organizer@pactnexus.demo"))).events.find(
      (e) => e.title === SALSA,
    )!.ledger;
    expect(ledger).toMatchObject({
      collectedCents: 3000,
      depositChargedCents: 2000,
      depositRefundedCents: 1000,
      depositHeldCents: 1000,
      depositKeptCents: 0,
    });
  });

  it("issue 37: the hike has a paid group of 3 — Hana holds it on her card, Ivan claimed Guest 1 as a named friend", async () => {
    const [hana, ivan] = await Promise.all([
      userByEmail("hana@pactnexus.demo"),
      userByEmail("ivan@pactnexus.demo"),
    ]);
    const hike = await event("Group Hike: Eagle Ridge Trail");
    const seats = await db.pledge.findMany({
      where: { campaignId: hike.id, groupId: { not: null } },
      orderBy: [{ guestSlot: "asc" }, { userId: "asc" }],
    });
    // three seats, one group on Hana's card: her own (the group's id), Guest 2, and Ivan's claimed seat
    expect(seats).toHaveLength(3);
    const own = seats.find((p) => p.id === p.groupId)!;
    expect(own.userId).toBe(hana.id);
    expect(seats.every((p) => p.groupId === own.id && p.standing === "in" && p.paymentMethodId)).toBe(true);
    expect(seats.map((p) => [p.userId === hana.id ? "hana" : "ivan", p.guestSlot]).sort()).toEqual([
      ["hana", 0],
      ["hana", 2],
      ["ivan", 0],
    ]);
    expect(await db.seatInvite.count({ where: { campaignId: hike.id, claimedAt: { not: null } } })).toBe(1);
    expect([hike.status, hike.committedCount, hike.goal]).toEqual(["pending", 7, 12]);
    // My commitments: Hana's group pays once for 3; Ivan owes nothing
    const entry = async (u: { id: string; email: string }) =>
      (await listMyCommitments({ ...u, name: null, isAdmin: false })).find((m) => m.campaignId === hike.id)!;
    expect((await entry(hana)).amountText).toBe("3 people × $20.00 = $60.00");
    expect((await entry(hana)).seats?.text).toBe("You and 1 guest");
    expect((await entry(ivan)).amountText).toBe("Paid by the person who invited you");
    // she ticked "Save this card for next time": her profile lists it, the next paid event is one tap
    const saved = await db.savedCard.findMany({ where: { userId: hana.id } });
    expect(saved.map((c) => c.paymentMethodId)).toEqual([own.paymentMethodId]);
    const managed = await listManagedPledges(hike.id, { paid: true, cancelled: false });
    expect(managed.flatMap((m) => (m.seat ? [m.seat] : [])).sort()).toEqual([
      "Claimed guest seat",
      "Guest 2",
      "Holds 2 seats",
    ]);
  });

  it("seeds an empty database only", async () => {
    const users = await db.user.count();
    const payments = await db.demoPaymentIntent.count();
    expect(await seedDemo()).toBe(false);
    expect(await db.user.count()).toBe(users);
    expect(await db.demoPaymentIntent.count()).toBe(payments);
  });
});
