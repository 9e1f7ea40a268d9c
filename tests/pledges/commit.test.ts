import { beforeEach, describe, expect, it, vi } from "vitest";

// The charging job is the money backend's: here we only need to know the crossing asked for it.
const requestCharging = vi.hoisted(() => vi.fn(async (_campaignId: string) => {}));
vi.mock("@/lib/charging/service", () => ({ requestCharging }));

import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import type { CommitResult } from "@/lib/pledges/decide";
import { COMMIT_MESSAGES } from "@/lib/access/pledge-policy";
import { createCampaign, createUser } from "../helpers/factories";

type Viewer = { id: string; email: string; name: string | null; isAdmin: boolean };

async function users(n: number): Promise<Viewer[]> {
  const rows = Array.from({ length: n }, (_, i) => ({
    email: `backer-${i}-${Math.random().toString(36).slice(2, 8)}@example.test`,
    name: `Backer ${i}`,
  }));
  await db.user.createMany({ data: rows });
  const created = await db.user.findMany({
    where: { email: { in: rows.map((r) => r.email) } },
    select: { id: true, email: true, name: true, isAdmin: true },
  });
  expect(created).toHaveLength(n);
  return created;
}

/** A saved demo card for `userId`, as the demo gateway's setup would leave it. */
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

type Outcome = { ok: true; result: CommitResult } | { ok: false; message: string; code?: string };
const settle = (p: Promise<CommitResult>): Promise<Outcome> =>
  p.then(
    (result) => ({ ok: true as const, result }),
    (e: { message: string; code?: string }) => ({ ok: false as const, message: e.message, code: e.code }),
  );

beforeEach(() => requestCharging.mockClear());

describe("commitToCampaign under concurrency", () => {
  it("200 concurrent commits on a goal-100 FREE event: exactly 100 recorded, one crossing, event charged", async () => {
    const campaign = await createCampaign({ goal: 100, ticketPriceCents: 0 });
    const backers = await users(200);
    const outcomes = await Promise.all(
      backers.map((u) => settle(commitToCampaign(u, { campaignId: campaign.id }))),
    );

    const ok = outcomes.filter((o) => o.ok);
    const refused = outcomes.filter((o) => !o.ok);
    const crossings = ok.filter((o) => o.result.crossed);
    console.info(
      `[concurrency free] sent=200 recorded=${ok.length} refused=${refused.length} crossings=${crossings.length}`,
    );
    expect(ok).toHaveLength(100);
    expect(crossings).toHaveLength(1);
    expect(crossings[0].ok && crossings[0].result).toMatchObject({
      status: "charged",
      committedCount: 100,
      remaining: 0,
      thresholdMet: true,
    });
    // Every refusal is the closed-event message, not a crash.
    expect(new Set(refused.map((o) => !o.ok && o.message))).toEqual(new Set([COMMIT_MESSAGES.closed]));
    // Counts reported to the committers are 1..100, each once: the lock serialised them.
    expect(ok.map((o) => o.result.committedCount).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 100 }, (_, i) => i + 1),
    );

    const after = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(after).toMatchObject({
      status: "charged",
      committedCount: 100,
      pledgeCount: 100,
      currentAmount: 100,
      chargeType: "free",
      totalCharged: 100,
    });
    expect(after.chargedAt).not.toBeNull();
    expect(after.lastStatusUpdate).not.toBeNull();
    const pledges = await db.pledge.findMany({ where: { campaignId: campaign.id } });
    expect(pledges).toHaveLength(100);
    for (const p of pledges) {
      expect(p).toMatchObject({
        charged: true,
        verified: true,
        chargeType: "free",
        paymentIntentId: null,
        chargeStatus: "succeeded",
        amountCents: 0,
        amount: 1,
      });
      expect(p.chargedAt).not.toBeNull();
    }
    expect(requestCharging).not.toHaveBeenCalled();
  });

  it("200 concurrent commits on a goal-200 FREE event: all 200 recorded, only the last crosses", async () => {
    const campaign = await createCampaign({ goal: 200 });
    const backers = await users(200);
    const outcomes = await Promise.all(
      backers.map((u) => settle(commitToCampaign(u, { campaignId: campaign.id }))),
    );
    const ok = outcomes.filter((o) => o.ok);
    const crossings = ok.filter((o) => o.result.crossed);
    console.info(`[concurrency free goal=200] sent=200 recorded=${ok.length} crossings=${crossings.length}`, [
      ...new Set(outcomes.filter((o) => !o.ok).map((o) => !o.ok && `${o.code} ${o.message}`)),
    ]);
    expect(ok).toHaveLength(200);
    expect(crossings).toHaveLength(1);
    expect(crossings[0].ok && crossings[0].result.committedCount).toBe(200);
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(200);
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      status: "charged",
      committedCount: 200,
      pledgeCount: 200,
    });
  });

  it("200 concurrent commits on a goal-200 PAID event: all 200 recorded with their cards, only the last crosses", async () => {
    const campaign = await createCampaign({ goal: 200, ticketPriceCents: 1000 });
    const backers = await users(200);
    const cards = await Promise.all(backers.map((u) => demoCard(u.id)));
    const outcomes = await Promise.all(
      backers.map((u, i) =>
        settle(commitToCampaign(u, { campaignId: campaign.id, paymentMethodId: cards[i] })),
      ),
    );
    const ok = outcomes.filter((o) => o.ok);
    const crossings = ok.filter((o) => o.result.crossed);
    console.info(`[concurrency paid goal=200] sent=200 recorded=${ok.length} crossings=${crossings.length}`);
    expect(ok).toHaveLength(200);
    expect(crossings).toHaveLength(1);
    expect(
      await db.pledge.count({ where: { campaignId: campaign.id, paymentMethodId: { not: null } } }),
    ).toBe(200);
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      status: "funded",
      committedCount: 200,
      raisedCents: 200_000n,
    });
    expect(requestCharging).toHaveBeenCalledTimes(1);
  });

  it("200 concurrent commits on a goal-100 PAID event with demo cards: 100 recorded, one crossing, funded, charging requested once", async () => {
    const campaign = await createCampaign({ goal: 100, ticketPriceCents: 2500 });
    const backers = await users(200);
    const cards = await Promise.all(backers.map((u) => demoCard(u.id)));
    const outcomes = await Promise.all(
      backers.map((u, i) =>
        settle(commitToCampaign(u, { campaignId: campaign.id, paymentMethodId: cards[i] })),
      ),
    );
    const ok = outcomes.filter((o) => o.ok);
    const refused = outcomes.filter((o) => !o.ok);
    const crossings = ok.filter((o) => o.result.crossed);
    console.info(
      `[concurrency paid] sent=200 recorded=${ok.length} refused=${refused.length} crossings=${crossings.length}`,
    );
    expect(ok).toHaveLength(100);
    expect(crossings).toHaveLength(1);
    expect(crossings[0].ok && crossings[0].result).toMatchObject({
      status: "funded",
      thresholdMet: true,
      remaining: 0,
      free: false,
      chargingQueued: true,
      // SPEC §8: the crossing committer's own pledge is charged at once; everyone else's by the job
      ownPayment: { status: "succeeded", amountCents: 2500 },
    });
    expect(new Set(refused.map((o) => !o.ok && o.message))).toEqual(new Set([COMMIT_MESSAGES.closed]));
    const crossingPledge = crossings[0].ok ? (crossings[0].result as { pledgeId: string }).pledgeId : "";

    const after = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(after).toMatchObject({
      status: "funded",
      committedCount: 100,
      pledgeCount: 100,
      raisedCents: 250_000n,
    });
    expect(after.fundedAt).not.toBeNull();
    expect(after.chargedAt).toBeNull();
    const pledges = await db.pledge.findMany({ where: { campaignId: campaign.id } });
    expect(pledges).toHaveLength(100);
    for (const p of pledges) {
      const own = p.id === crossingPledge;
      expect(p).toMatchObject({
        charged: own,
        verified: own,
        amountCents: 2500,
        cardBrand: "visa",
        cardLast4: "4242",
        chargeStatus: own ? "succeeded" : "none",
      });
      expect(p.paymentMethodId).toMatch(/^pm_demo_/);
    }
    expect(requestCharging).toHaveBeenCalledTimes(1);
    expect(requestCharging).toHaveBeenCalledWith(campaign.id);
  });
});

describe("commitToCampaign across app instances", () => {
  it("two instances (separate in-process queues) racing on one event: the row lock still gives exactly one crossing", async () => {
    vi.resetModules();
    const second = await import("@/lib/pledges/service");
    expect(second.commitToCampaign).not.toBe(commitToCampaign);
    const campaign = await createCampaign({ goal: 50 });
    const backers = await users(120);
    const outcomes = await Promise.all(
      backers.map((u, i) =>
        settle((i % 2 ? second.commitToCampaign : commitToCampaign)(u, { campaignId: campaign.id })),
      ),
    );
    const ok = outcomes.filter((o) => o.ok);
    const crossings = ok.filter((o) => o.result.crossed);
    console.info(`[concurrency two instances] sent=120 recorded=${ok.length} crossings=${crossings.length}`);
    expect(ok).toHaveLength(50);
    expect(crossings).toHaveLength(1);
    expect(ok.map((o) => o.result.committedCount).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 50 }, (_, i) => i + 1),
    );
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(50);
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      status: "charged",
      committedCount: 50,
      pledgeCount: 50,
    });
  });
});

describe("commitToCampaign below the threshold across app instances", () => {
  it("three instances committing at once, none crossing: counters exact, every count reported once, one email each", async () => {
    vi.resetModules();
    const second = await import("@/lib/pledges/service");
    vi.resetModules();
    const third = await import("@/lib/pledges/service");
    const instances = [commitToCampaign, second.commitToCampaign, third.commitToCampaign];
    const campaign = await createCampaign({ goal: 1000 });
    const backers = await users(150);
    const outcomes = await Promise.all(
      backers.map((u, i) => settle(instances[i % 3](u, { campaignId: campaign.id }))),
    );
    const ok = outcomes.filter((o) => o.ok);
    expect(ok).toHaveLength(150);
    // Had two commits written against the same version of the row, two would report the same count.
    expect(ok.map((o) => o.result.committedCount).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 150 }, (_, i) => i + 1),
    );
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      status: "pending",
      committedCount: 150,
      pledgeCount: 150,
      currentAmount: 150,
    });
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(150);
    const emails = await db.emailOutbox.findMany({
      where: { toEmail: { in: backers.map((b) => b.email.toLowerCase()) } },
      select: { dedupeKey: true },
    });
    expect(emails).toHaveLength(150);
    expect(new Set(emails.map((e) => e.dedupeKey)).size).toBe(150);
  });
});

describe("commitToCampaign double commit across app instances", () => {
  it("one user committing through two instances at once: one pledge, the other told they already committed", async () => {
    vi.resetModules();
    const second = await import("@/lib/pledges/service");
    const campaign = await createCampaign({ goal: 50 });
    const [u] = await users(1);
    for (let round = 0; round < 3; round++) {
      const other = round === 0 ? u : (await users(1))[0];
      const outcomes = await Promise.all([
        settle(commitToCampaign(other, { campaignId: campaign.id })),
        settle(second.commitToCampaign(other, { campaignId: campaign.id })),
      ]);
      expect(outcomes.filter((o) => o.ok)).toHaveLength(1);
      expect(outcomes.find((o) => !o.ok)).toMatchObject({
        code: "CONFLICT",
        message: COMMIT_MESSAGES.alreadyCommitted,
      });
    }
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(3);
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      committedCount: 3,
      pledgeCount: 3,
      currentAmount: 3,
    });
  });
});

describe("commitToCampaign rules", () => {
  it("signed out: the SPEC message, nothing written", async () => {
    const campaign = await createCampaign();
    await expect(commitToCampaign(null, { campaignId: campaign.id })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
      message: "Please sign in to commit to this event",
    });
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  it("a double submit (sequential and concurrent) leaves one pledge and the SPEC message", async () => {
    const campaign = await createCampaign({ goal: 50 });
    const [a, b] = await users(2);
    const twice = await Promise.all([
      settle(commitToCampaign(a, { campaignId: campaign.id })),
      settle(commitToCampaign(a, { campaignId: campaign.id })),
    ]);
    expect(twice.filter((o) => o.ok)).toHaveLength(1);
    expect(twice.find((o) => !o.ok)).toMatchObject({
      message: "You have already committed to this event",
      code: "CONFLICT",
    });

    await commitToCampaign(b, { campaignId: campaign.id });
    await expect(commitToCampaign(b, { campaignId: campaign.id })).rejects.toMatchObject({
      message: "You have already committed to this event",
    });
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(2);
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      committedCount: 2,
      pledgeCount: 2,
    });
  });

  it("records contributor, amount, payment method and reports what the result modal needs", async () => {
    const campaign = await createCampaign({ goal: 3 });
    await db.campaign.update({ where: { id: campaign.id }, data: { paymentMethod: "Cash at the door" } });
    const named = await createUser({ name: "Dana Doe" });
    const unnamed = await createUser({ name: null });
    const first = await commitToCampaign(named, { campaignId: campaign.id });
    expect(first).toMatchObject({
      committedCount: 1,
      goal: 3,
      remaining: 2,
      thresholdMet: false,
      crossed: false,
      status: "pending",
      free: true,
    });
    expect(first.pledgeId).toMatch(/^c[a-z0-9]{24}$/);
    await commitToCampaign(unnamed, { campaignId: campaign.id });
    const pledges = await db.pledge.findMany({
      where: { campaignId: campaign.id },
      orderBy: { createdAt: "asc" },
    });
    // a person without a display name is stored as "Anonymous Backer", never by email (was: their email; DESIGN §1 "public names")
    expect(pledges.map((p) => p.contributor)).toEqual(["Dana Doe", "Anonymous Backer"]);
    expect(
      pledges.every(
        (p) =>
          p.paymentMethod === "Cash at the door" && !p.charged && !p.verified && p.paymentMethodId === null,
      ),
    ).toBe(true);
  });

  it.each(["funded", "charging", "charged", "expired", "cancelled"] as const)(
    "refuses a %s event and writes nothing",
    async (status) => {
      const campaign = await createCampaign({ status });
      const u = await createUser();
      await expect(commitToCampaign(u, { campaignId: campaign.id })).rejects.toMatchObject({
        code: "CONFLICT",
        message: COMMIT_MESSAGES.closed,
      });
      expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(0);
      expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
        status,
        committedCount: 0,
        pledgeCount: 0,
      });
    },
  );

  it("refuses a past-deadline event and writes nothing", async () => {
    const campaign = await createCampaign({ deadline: new Date(Date.now() - 60_000) });
    const u = await createUser();
    await expect(commitToCampaign(u, { campaignId: campaign.id })).rejects.toMatchObject({
      message: COMMIT_MESSAGES.ended,
    });
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  it("unapproved events: hidden from others, refused for the creator, open to admins", async () => {
    for (const approvalStatus of ["pending", "rejected"] as const) {
      const creator = await createUser();
      const campaign = await createCampaign({ approvalStatus, creatorId: creator.id, goal: 5 });
      const stranger = await createUser();
      const admin = await createUser({ isAdmin: true });
      await expect(commitToCampaign(stranger, { campaignId: campaign.id })).rejects.toMatchObject({
        code: "NOT_FOUND",
      });
      await expect(commitToCampaign(creator, { campaignId: campaign.id })).rejects.toMatchObject({
        code: "FORBIDDEN",
        message: COMMIT_MESSAGES.notApproved,
      });
      expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(0);
      await expect(commitToCampaign(admin, { campaignId: campaign.id })).resolves.toMatchObject({
        committedCount: 1,
      });
    }
  });

  it("bad input is a 400-style error, never a crash", async () => {
    const u = await createUser();
    await expect(commitToCampaign(u, { campaignId: "../../etc" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(commitToCampaign(u, null)).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(commitToCampaign(u, { campaignId: "c".repeat(25) })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
  });

  it("paid events need the committer's own saved card", async () => {
    const campaign = await createCampaign({ ticketPriceCents: 1500, goal: 5 });
    const [u, other] = await users(2);
    await expect(commitToCampaign(u, { campaignId: campaign.id })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: COMMIT_MESSAGES.paymentRequired,
    });
    const othersCard = await demoCard(other.id);
    await expect(
      commitToCampaign(u, { campaignId: campaign.id, paymentMethodId: othersCard }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      commitToCampaign(u, { campaignId: campaign.id, paymentMethodId: "pm_demo_doesnotexist" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(0);
    const own = await demoCard(u.id);
    await expect(
      commitToCampaign(u, { campaignId: campaign.id, paymentMethodId: own }),
    ).resolves.toMatchObject({ committedCount: 1, free: false });
    expect(await db.pledge.findFirstOrThrow({ where: { campaignId: campaign.id } })).toMatchObject({
      amountCents: 1500,
      paymentMethodId: own,
      cardLast4: "4242",
    });
  });

  it("crowdfund: the backer pledges an amount with a saved card; it counts in dollars toward the goal", async () => {
    // DESIGN §1 "pact types" (issue 13 item 7): a crowdfund at a $0 ticket price used to take
    // commitments without a card and confirm with $0 collected ("status: charged"); now every
    // crowdfund pledge is a saved card charged its amount at the tip, like a paid paction.
    const campaign = await createCampaign({ pactType: "crowdfund", goal: 100, ticketPriceCents: 0 });
    const [a, b, c] = await users(3);
    await expect(commitToCampaign(a, { campaignId: campaign.id, amount: "60.50" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: COMMIT_MESSAGES.paymentRequired,
    });
    const cardA = await demoCard(a.id);
    await expect(
      commitToCampaign(a, { campaignId: campaign.id, paymentMethodId: cardA }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST", message: "Please enter an amount" });
    await expect(
      commitToCampaign(a, { campaignId: campaign.id, paymentMethodId: cardA, amount: "0.50" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      commitToCampaign(a, { campaignId: campaign.id, paymentMethodId: cardA, amount: "abc" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const first = await commitToCampaign(a, {
      campaignId: campaign.id,
      paymentMethodId: cardA,
      amount: "60.50",
    });
    expect(first).toMatchObject({ committedCount: 60, remaining: 40, unit: "dollars", crossed: false });
    const second = await commitToCampaign(b, {
      campaignId: campaign.id,
      paymentMethodId: await demoCard(b.id),
      amount: "39.50",
    });
    expect(second).toMatchObject({ committedCount: 100, crossed: true, status: "funded" });
    expect(requestCharging).toHaveBeenCalledWith(campaign.id);
    await expect(
      commitToCampaign(c, { campaignId: campaign.id, paymentMethodId: await demoCard(c.id), amount: "5" }),
    ).rejects.toMatchObject({ message: COMMIT_MESSAGES.closed });
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      status: "funded",
      raisedCents: 10_000n,
      pledgeCount: 2,
      currentAmount: 99,
    });
    const pledges = await db.pledge.findMany({
      where: { campaignId: campaign.id },
      orderBy: { createdAt: "asc" },
    });
    // the pledge that reached the goal is charged its own amount at once (SPEC §8); the other by the job
    expect(pledges.map((p) => [p.amountCents, p.paymentMethodId !== null, p.chargeType])).toEqual([
      [6050, true, null],
      [3950, true, "paid"],
    ]);
  });

  it("paid crossing whose charging cannot be queued still records the pledge and says so", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    requestCharging.mockRejectedValueOnce(new Error("queue down"));
    const campaign = await createCampaign({ goal: 1, ticketPriceCents: 900 });
    const u = await createUser();
    const result = await commitToCampaign(u, {
      campaignId: campaign.id,
      paymentMethodId: await demoCard(u.id),
    });
    // The committer's own charge went through (SPEC §8); the job could not be queued, and the
    // sweeper would pick the rest up. With one backer, nothing is left: the event is charged.
    expect(result).toMatchObject({
      crossed: true,
      status: "funded",
      chargingQueued: false,
      ownPayment: { status: "succeeded", amountCents: 900 },
    });
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      status: "charged",
      committedCount: 1,
      totalCharged: 1,
    });
    expect(warn).toHaveBeenCalled();
    warn.mockRestore();
  });

  it("crowdfund commit emails count this pledge: the one short of the goal says how much is left, the one that reaches it is charged now", async () => {
    // issue 19: the email used the amount raised before the pledge, so the pledge that reached the
    // goal was told "only if … It needs $X more".
    const startsAt = new Date(Date.now() + 20 * 24 * 3600_000);
    const campaign = await createCampaign({
      pactType: "crowdfund",
      goal: 1000,
      ticketPriceCents: 0,
      startsAt,
    });
    const [a, b] = await users(2);
    await commitToCampaign(a, {
      campaignId: campaign.id,
      paymentMethodId: await demoCard(a.id),
      amount: "900",
    });
    await commitToCampaign(b, {
      campaignId: campaign.id,
      paymentMethodId: await demoCard(b.id),
      amount: "300",
    });
    const email = async (userId: string) =>
      db.emailOutbox.findFirstOrThrow({
        where: {
          dedupeKey: { startsWith: "commit:" },
          toEmail: (await db.user.findUniqueOrThrow({ where: { id: userId } })).email,
        },
      });
    const first = await email(a.id);
    expect(first.text).toContain("only if the $1,000.00 goal is met");
    expect(first.text).toContain("It needs $100.00 more in pledges.");
    expect(JSON.stringify(first.attachments)).toContain("STATUS:TENTATIVE");
    const crossing = await email(b.id);
    expect(crossing.text).toContain("The goal is reached, so your card is being charged $300.00 now.");
    expect(crossing.text).not.toContain("only if");
    expect(crossing.text).not.toContain("more in pledges");
    expect(JSON.stringify(crossing.attachments)).toContain("STATUS:CONFIRMED");
  });
});

describe("group commit (issue 32: the commits queued for one event are written together)", () => {
  it("a burst on one event is written in groups: every commit its own count, counters and emails exact", async () => {
    const campaign = await createCampaign({ goal: 1000 });
    const backers = await users(80);
    const outcomes = await Promise.all(
      backers.map((u) => settle(commitToCampaign(u, { campaignId: campaign.id }))),
    );
    const ok = outcomes.filter((o) => o.ok);
    expect(ok).toHaveLength(80);
    // decided in arrival order on the row as the previous commits of the group left it
    expect(ok.map((o) => o.result.committedCount).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 80 }, (_, i) => i + 1),
    );
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      status: "pending",
      committedCount: 80,
      pledgeCount: 80,
      currentAmount: 80,
    });
    const pledges = await db.pledge.findMany({
      where: { campaignId: campaign.id },
      select: { createdAt: true },
    });
    expect(pledges).toHaveLength(80);
    // a group's pledges share the moment it was written: fewer moments than commits = groups happened
    expect(new Set(pledges.map((p) => p.createdAt.getTime())).size).toBeLessThan(80);
    const emails = await db.emailOutbox.findMany({
      where: { toEmail: { in: backers.map((b) => b.email.toLowerCase()) } },
      select: { dedupeKey: true, text: true },
    });
    expect(emails).toHaveLength(80);
    expect(new Set(emails.map((e) => e.dedupeKey)).size).toBe(80);
  });

  it("one person twice inside a burst: one pledge, the other told they already committed, counters = rows", async () => {
    const campaign = await createCampaign({ goal: 1000 });
    const others = await users(30);
    const [twice] = await users(1);
    const sends = others.map((u) => commitToCampaign(u, { campaignId: campaign.id }));
    sends.splice(10, 0, commitToCampaign(twice!, { campaignId: campaign.id }));
    sends.splice(20, 0, commitToCampaign(twice!, { campaignId: campaign.id }));
    const outcomes = await Promise.all(sends.map(settle));
    expect(outcomes.filter((o) => o.ok)).toHaveLength(31);
    const refused = outcomes.filter((o) => !o.ok);
    expect(refused).toEqual([{ ok: false, code: "CONFLICT", message: COMMIT_MESSAGES.alreadyCommitted }]);
    expect(await db.pledge.count({ where: { campaignId: campaign.id, userId: twice!.id } })).toBe(1);
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      committedCount: 31,
      pledgeCount: 31,
    });
  });

  it("a crowdfund burst: raised = the sum of the pledges, the crossing exactly once at the goal", async () => {
    const campaign = await createCampaign({
      pactType: "crowdfund",
      goal: 500,
      ticketPriceCents: 0,
      acceptAfterThreshold: true,
    });
    const backers = await users(40);
    const cards = await Promise.all(backers.map((u) => demoCard(u.id)));
    // $20.00 .. $59.00: the total 1580 dollars passes the 500 goal mid-burst
    const outcomes = await Promise.all(
      backers.map((u, i) =>
        settle(
          commitToCampaign(u, { campaignId: campaign.id, paymentMethodId: cards[i], amount: `${20 + i}.00` }),
        ),
      ),
    );
    const ok = outcomes.filter((o) => o.ok);
    expect(outcomes.filter((o) => !o.ok)).toEqual([]);
    expect(ok.filter((o) => o.result.crossed)).toHaveLength(1);
    const row = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(Number(row.raisedCents)).toBe(
      Array.from({ length: 40 }, (_, i) => (20 + i) * 100).reduce((a, b) => a + b),
    );
    expect(row.pledgeCount).toBe(40);
    expect(row.status).toBe("funded");
    // every commit before the crossing reported less than the goal, the crossing one at least the goal
    const crossing = ok.find((o) => o.result.crossed)!.result.committedCount;
    expect(crossing).toBeGreaterThanOrEqual(500);
    const before = ok.filter((o) => !o.result.crossed && !o.result.late).map((o) => o.result.committedCount);
    expect(before.every((n) => n < 500)).toBe(true);
    // charging is asked by the crossing and by each late commit after it (as before group commit)
    expect(requestCharging).toHaveBeenCalledTimes(1 + ok.filter((o) => o.result.late).length);
  });
});
