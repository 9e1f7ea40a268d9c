import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { scaled } from "@/tests/helpers/scale";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe, type CardBehavior } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { chargeUntilSettled, duplicates, stripeBackers, type StripeBacker } from "@/tests/charging/helpers";
import { createCampaign, createUser } from "@/tests/helpers/factories";

// issue 20: capacity with a paid waitlist that charges on promotion, exactly once — against the
// fake Stripe, counted there.
let fake: FakeStripe;
let pledges: typeof import("@/lib/pledges/service");
let withdraw: typeof import("@/lib/pledges/withdraw");
let dropUnpaid: typeof import("@/lib/charging/drop-unpaid");
let giveUp: typeof import("@/lib/pledges/give-up");
let waitlist: typeof import("@/lib/campaigns/waitlist");
let charging: typeof import("@/lib/charging/service");
let refunds: typeof import("@/lib/ledger/refunds");

beforeAll(async () => {
  fake = await startFakeStripe();
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "100000" });
  pledges = await import("@/lib/pledges/service");
  withdraw = await import("@/lib/pledges/withdraw");
  dropUnpaid = await import("@/lib/charging/drop-unpaid");
  giveUp = await import("@/lib/pledges/give-up");
  waitlist = await import("@/lib/campaigns/waitlist");
  charging = await import("@/lib/charging/service");
  refunds = await import("@/lib/ledger/refunds");
});
afterAll(async () => {
  await fake.close();
});

type Backer = StripeBacker;
const backers = (n: number, behavior?: (i: number) => CardBehavior) => stripeBackers(fake, n, behavior);

const commit = (c: { id: string }, b: Backer) =>
  pledges.commitToCampaign(b, { campaignId: c.id, paymentMethodId: b.card });

const chargeAll = (campaignId: string) => chargeUntilSettled(charging.runCharging, campaignId);

const inCount = (campaignId: string) =>
  db.pledge.count({ where: { campaignId, withdrawnAt: null, waitlistedAt: null } });

// the heavy scenario's size (tests/helpers/scale.ts): 500 people, 100 places, 30 opened at full size
const PEOPLE = scaled(500, 150);
const CAP = scaled(100, 40);
const OPEN = scaled(30, 12);
const WAITING = PEOPLE - CAP;
const THIRD = OPEN / 3;

describe("capacity and the waitlist", () => {
  it(`${PEOPLE} concurrent commits on a capacity-${CAP} paid event (goal ${CAP / 2}): exactly ${CAP} in, the rest waitlisted in commit order; then ${OPEN} places opened at once — drops, give-ups, withdrawals after a change — promote exactly ${OPEN}, each charged once, never more than ${CAP} in`, async () => {
    const creator = await createUser();
    const c = await createCampaign({
      creatorId: creator.id,
      goal: CAP / 2,
      capacity: CAP,
      ticketPriceCents: 1500,
    });
    const people = await backers(PEOPLE);
    const results = await Promise.allSettled(people.map((b) => commit(c, b)));
    const failed = results.filter((r) => r.status === "rejected");
    expect(failed.map((r) => String((r as PromiseRejectedResult).reason))).toEqual([]);

    const rows = await db.pledge.findMany({
      where: { campaignId: c.id },
      orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    });
    expect(rows).toHaveLength(PEOPLE);
    const inRows = rows.filter((p) => p.waitlistedAt === null);
    const waiting = rows.filter((p) => p.waitlistedAt !== null);
    expect(inRows).toHaveLength(CAP);
    expect(waiting).toHaveLength(WAITING);
    // commit order: everyone in committed before anyone waiting
    expect(rows.slice(0, CAP).every((p) => p.waitlistedAt === null)).toBe(true);
    // what each commit was told is its place in line, 1..WAITING in commit order
    const told = new Set(
      results.map((r) => (r as PromiseFulfilledResult<{ pledgeId: string }>).value.pledgeId),
    ).size;
    expect(told).toBe(PEOPLE);
    const positions = results
      .map((r) => (r as PromiseFulfilledResult<{ pledgeId: string; position: number | null }>).value)
      .filter((v) => v.position !== null);
    const byPledge = new Map(positions.map((v) => [v.pledgeId, v.position]));
    expect(waiting.map((p) => byPledge.get(p.id))).toEqual(Array.from({ length: WAITING }, (_, i) => i + 1));
    const computed = await waitlist.waitlistPositions(
      c.id,
      waiting.map((p) => p.id),
    );
    expect(waiting.map((p) => computed.get(p.id))).toEqual(Array.from({ length: WAITING }, (_, i) => i + 1));

    let campaign = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect([campaign.committedCount, campaign.pledgeCount, campaign.waitlistCount]).toEqual([
      CAP,
      CAP,
      WAITING,
    ]);
    expect(Number(campaign.raisedCents)).toBe(CAP * 1500);
    expect(["funded", "charging", "charged"]).toContain(campaign.status);
    expect(waiting.every((p) => p.chargeStatus === "none" && p.paymentMethodId)).toBe(true);

    await chargeAll(c.id);
    expect(fake.succeededChargesFor(inRows.map((p) => p.id))).toBe(CAP);
    expect(waiting.some((p) => fake.chargeCount(p.id) > 0)).toBe(false);

    // OPEN places open at once: a third failed payments dropped, a third given up, a third withdrawals in a
    // change's window (issue 17).
    const [dropIds, giverRows, changeRows] = [
      inRows.slice(0, THIRD),
      inRows.slice(THIRD, 2 * THIRD),
      inRows.slice(2 * THIRD, OPEN),
    ];
    const longAgo = new Date(Date.now() - 30 * 86_400_000);
    await db.pledge.updateMany({
      where: { id: { in: dropIds.map((p) => p.id) } },
      data: { chargeStatus: "failed", charged: false, paymentFailedAt: longAgo, paymentIntentId: null },
    });
    await db.campaign.update({
      where: { id: c.id },
      data: { changedAfterTipAt: new Date(), changeWithdrawUntil: new Date(Date.now() + 86_400_000) },
    });
    const byUser = new Map(people.map((b) => [b.id, b]));
    let maxIn = 0;
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        maxIn = Math.max(maxIn, await inCount(c.id));
        await new Promise((r) => setTimeout(r, 5));
      }
    })();
    const opened = await Promise.allSettled([
      ...dropIds.map((p) => dropUnpaid.dropUnpaidPledge(p.id, new Date())),
      ...giverRows.map((p) => giveUp.giveUpPlace(byUser.get(p.userId)!, { campaignId: c.id })),
      ...changeRows.map((p) => withdraw.withdrawCommitment(byUser.get(p.userId)!, { campaignId: c.id })),
    ]);
    expect(opened.filter((r) => r.status === "rejected")).toEqual([]);
    await chargeAll(c.id);
    sampling = false;
    await sampler;
    expect(maxIn).toBeLessThanOrEqual(CAP);

    const promoted = await db.pledge.findMany({ where: { campaignId: c.id, promotedAt: { not: null } } });
    expect(promoted).toHaveLength(OPEN);
    // the first OPEN in line, in order
    expect(promoted.map((p) => p.id).sort()).toEqual(
      waiting
        .slice(0, OPEN)
        .map((p) => p.id)
        .sort(),
    );
    expect(promoted.every((p) => p.chargeStatus === "succeeded")).toBe(true);
    expect(fake.succeededChargesFor(promoted.map((p) => p.id))).toBe(OPEN);
    expect(
      duplicates(
        fake,
        rows.map((p) => p.id),
      ),
    ).toEqual([]);
    campaign = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect([campaign.committedCount, campaign.waitlistCount, await inCount(c.id)]).toEqual([
      CAP,
      WAITING - OPEN,
      CAP,
    ]);
    // positions moved up
    const last = waiting[WAITING - 1];
    const next = await waitlist.waitlistPositions(c.id, [waiting[OPEN].id, last.id]);
    expect([next.get(waiting[OPEN].id), next.get(last.id)]).toEqual([1, WAITING - OPEN]);

    // the givers and the changed-mind are refunded now that the promoted have paid
    await refunds.refundOwedPledges(c.id);
    const refunded = await db.pledge.findMany({
      where: { id: { in: [...giverRows, ...changeRows].map((p) => p.id) } },
    });
    expect(refunded.map((p) => p.chargeStatus)).toEqual(Array(2 * THIRD).fill("refunded"));
    const givers = await db.pledge.findMany({ where: { id: { in: giverRows.map((p) => p.id) } } });
    expect(givers.every((p) => p.gaveUpAt && p.handedToId)).toBe(true);
    // the promoted were told
    const mail = await db.emailOutbox.count({
      where: {
        toEmail: { in: promoted.map((p) => byUser.get(p.userId)!.email) },
        subject: { contains: "A place opened" },
      },
    });
    expect(mail).toBe(OPEN);
  }, 240_000);

  it("a promotion whose card fails goes back in line and the place moves on; a new card puts it next in line again; a given-up place is refunded only once someone has paid for it", async () => {
    const c = await createCampaign({ goal: 2, capacity: 2, ticketPriceCents: 900 });
    const [a, b, x, y] = await backers(4, (i) => (i === 2 ? "expired_card" : "ok"));
    await commit(c, a);
    await commit(c, b); // tips; both charged
    await chargeAll(c.id);
    const wx = await commit(c, x); // waits: #1 with a card that will decline
    const wy = await commit(c, y); // #2
    expect([wx.waitlisted, wx.position, wy.position]).toEqual([true, 1, 2]);
    const aPledge = await db.pledge.findFirstOrThrow({ where: { campaignId: c.id, userId: a.id } });

    await giveUp.giveUpPlace(a, { campaignId: c.id });
    // x is promoted and declined: back in line, y takes the place and pays
    await chargeAll(c.id);
    const [px, py] = await Promise.all([
      db.pledge.findFirstOrThrow({ where: { campaignId: c.id, userId: x.id } }),
      db.pledge.findFirstOrThrow({ where: { campaignId: c.id, userId: y.id } }),
    ]);
    expect([px.waitlistedAt !== null, px.chargeStatus, px.charged]).toEqual([true, "failed", false]);
    expect([py.waitlistedAt, py.chargeStatus, py.promotedAt !== null]).toEqual([null, "succeeded", true]);
    expect(fake.chargeCount(px.id)).toBe(1);
    expect(fake.succeededChargesFor([py.id])).toBe(1);
    const declined = await db.emailOutbox.findMany({
      where: { toEmail: x.email, subject: { contains: "declined" } },
    });
    expect(declined).toHaveLength(1);
    expect(declined[0].text).toContain("went to the next person in line");
    // a's place went to y (the link moved on from x), who paid: a is refunded
    expect((await db.pledge.findUniqueOrThrow({ where: { id: aPledge.id } })).handedToId).toBe(py.id);
    await refunds.refundOwedPledges(c.id);
    expect((await db.pledge.findUniqueOrThrow({ where: { id: aPledge.id } })).chargeStatus).toBe("refunded");

    // x gives a good card: back in line at its place, charged when the next place opens
    const good = fake.addPaymentMethod(
      (await db.user.findUniqueOrThrow({ where: { id: x.id } })).stripeCustomerId!,
      "ok",
    );
    await withdraw.changeCommitmentCard(x, { campaignId: c.id, paymentMethodId: good });
    expect((await db.pledge.findUniqueOrThrow({ where: { id: px.id } })).chargeStatus).toBe("none");
    await expect(giveUp.giveUpPlace(x, { campaignId: c.id })).rejects.toThrow(giveUp.GIVE_UP_TEXTS.notIn);
    await giveUp.giveUpPlace(b, { campaignId: c.id });
    await chargeAll(c.id);
    const px2 = await db.pledge.findUniqueOrThrow({ where: { id: px.id } });
    expect([px2.waitlistedAt, px2.chargeStatus]).toEqual([null, "succeeded"]);
    expect(fake.succeededChargesFor([px.id])).toBe(1);
    const campaign = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect([campaign.committedCount, campaign.waitlistCount]).toEqual([2, 0]);

    // nobody waiting: a place cannot be given up
    await expect(giveUp.giveUpPlace(y, { campaignId: c.id })).rejects.toThrow(
      giveUp.GIVE_UP_TEXTS.nobodyWaiting,
    );
  }, 60_000);

  it("a given-up place whose taker cannot pay, with nobody else in line, goes back to the giver: in again, still paid, nothing refunded", async () => {
    const c = await createCampaign({ goal: 1, capacity: 1, ticketPriceCents: 1100 });
    const [a, x] = await backers(2, (i) => (i === 1 ? "lost_card" : "ok"));
    await commit(c, a);
    await chargeAll(c.id);
    await commit(c, x); // waits with a card that will fail
    const before = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    await giveUp.giveUpPlace(a, { campaignId: c.id });
    await chargeAll(c.id);
    const [pa, px] = await Promise.all(
      [a, x].map((u) => db.pledge.findFirstOrThrow({ where: { campaignId: c.id, userId: u.id } })),
    );
    expect([pa.withdrawnAt, pa.gaveUpAt, pa.handedToId, pa.chargeStatus]).toEqual([
      null,
      null,
      null,
      "succeeded",
    ]);
    expect([px.waitlistedAt !== null, px.chargeStatus]).toEqual([true, "failed"]);
    await refunds.refundOwedPledges(c.id);
    expect((await db.pledge.findUniqueOrThrow({ where: { id: pa.id } })).chargeStatus).toBe("succeeded");
    const after = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect([after.committedCount, after.pledgeCount, Number(after.raisedCents), after.waitlistCount]).toEqual(
      [before.committedCount, before.pledgeCount, Number(before.raisedCents), 1],
    );
    expect(fake.succeededChargesFor([pa.id, px.id])).toBe(1);
  }, 60_000);

  it("the waitlisted may leave at any time; the waitlist closes at the start, letting everyone waiting go uncharged with their card released", async () => {
    const c = await createCampaign({
      goal: 1,
      capacity: 1,
      ticketPriceCents: 500,
      deadline: new Date(Date.now() + 2 * 86_400_000),
      startsAt: new Date(Date.now() + 3 * 86_400_000),
    });
    const [a, b, d, e] = await backers(4);
    await commit(c, a);
    await chargeAll(c.id);
    await commit(c, b);
    await commit(c, d);
    await commit(c, e);
    // b leaves: d is #1 now
    await withdraw.withdrawCommitment(b, { campaignId: c.id });
    const [pd, pe] = await Promise.all(
      [d, e].map((u) =>
        db.pledge.findFirstOrThrow({ where: { campaignId: c.id, userId: u.id, withdrawnAt: null } }),
      ),
    );
    const pos = await waitlist.waitlistPositions(c.id, [pd.id, pe.id]);
    expect([pos.get(pd.id), pos.get(pe.id)]).toEqual([1, 2]);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).waitlistCount).toBe(2);

    // the event starts: nobody is promoted any more, the waitlist closes
    const started = new Date(Date.now() + 4 * 86_400_000);
    const pass = await waitlist.runWaitlistPass(started);
    expect(pass.closed).toBe(2);
    const after = await db.pledge.findMany({ where: { id: { in: [pd.id, pe.id] } } });
    expect(after.every((p) => p.waitlistClosedAt && p.withdrawnAt && !p.charged)).toBe(true);
    expect(after.every((p) => fake.chargeCount(p.id) === 0)).toBe(true);
    expect(
      await db.emailOutbox.count({
        where: { toEmail: { in: [d.email, e.email] }, subject: { contains: "No place opened" } },
      }),
    ).toBe(2);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).waitlistCount).toBe(0);
  }, 60_000);

  it("a capacity below the goal, on a crowdfund, or lowered once people committed is refused with a clear message", async () => {
    const { createCampaignSchema } = await import("@/lib/campaigns/schema");
    const { CAPACITY_TEXTS } = await import("@/lib/campaigns/fields");
    const base = {
      title: "Board game night",
      description: "Bring your favourite games and snacks for everyone.",
      goal: "10",
      deadline: new Date(Date.now() + 3 * 86_400_000).toISOString(),
      ticketPrice: "5",
    };
    const low = createCampaignSchema().safeParse({ ...base, capacity: "5" });
    expect(low.success ? null : low.error.issues[0].message).toBe(CAPACITY_TEXTS.belowGoal(10));
    const bad = createCampaignSchema().safeParse({ ...base, capacity: "ten" });
    expect(bad.success ? null : bad.error.issues[0].message).toBe(CAPACITY_TEXTS.invalid);
    const ok = createCampaignSchema().safeParse({ ...base, capacity: "12" });
    expect(ok.success && ok.data.capacity).toBe(12);
  });
});
