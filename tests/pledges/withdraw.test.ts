import { describe, expect, it, vi } from "vitest";

// Charging is run by hand below (after the race), so the crossing's queue request is only recorded.
const requestCharging = vi.hoisted(() => vi.fn(async (_campaignId: string) => {}));
vi.mock("@/lib/charging/service", () => ({ requestCharging }));

import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { withdrawCommitment } from "@/lib/pledges/withdraw";
import { WITHDRAW_TEXTS } from "@/lib/access/pledge-policy";
import { chargeCampaign } from "@/lib/charging/run";
import { updateCampaign } from "@/lib/campaigns/edit";
import { getEditView } from "@/lib/campaigns/edit-view";
import { createCampaign, createUser } from "../helpers/factories";

type Viewer = { id: string; email: string; name: string | null; isAdmin: boolean };

async function users(n: number): Promise<Viewer[]> {
  const tag = Math.random().toString(36).slice(2, 8);
  const rows = Array.from({ length: n }, (_, i) => ({
    email: `wd-${i}-${tag}@example.test`,
    name: `W ${i}`,
  }));
  await db.user.createMany({ data: rows });
  return db.user.findMany({
    where: { email: { in: rows.map((r) => r.email) } },
    select: { id: true, email: true, name: true, isAdmin: true },
    orderBy: { email: "asc" },
  });
}

async function demoCard(userId: string): Promise<string> {
  const id = `pm_demo_${Math.random().toString(16).slice(2)}${Math.random().toString(16).slice(2)}`.slice(
    0,
    40,
  );
  await db.demoPaymentMethod.create({
    data: { id, userId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, behavior: "ok" },
  });
  return id;
}

type Settled = { ok: true; value: unknown } | { ok: false; message: string };
const settle = (p: Promise<unknown>): Promise<Settled> =>
  p.then(
    (value) => ({ ok: true as const, value }),
    (e: { message: string }) => ({ ok: false as const, message: e.message }),
  );

describe("withdrawing a commitment", () => {
  it("before the tip: the row stays withdrawn with its number, counts drop, the card is released, and the backer may commit again with a new number", async () => {
    const campaign = await createCampaign({ goal: 5, ticketPriceCents: 1500 });
    const [a, b] = await users(2);
    await commitToCampaign(a, { campaignId: campaign.id, paymentMethodId: await demoCard(a.id) });
    await commitToCampaign(b, { campaignId: campaign.id, paymentMethodId: await demoCard(b.id) });

    const result = await withdrawCommitment(a, { campaignId: campaign.id });
    expect(result).toMatchObject({ committedCount: 1, goal: 5, refundCents: 0 });

    const rows = await db.pledge.findMany({
      where: { campaignId: campaign.id },
      orderBy: { attendeeNumber: "asc" },
    });
    expect(rows.map((p) => [p.userId, p.attendeeNumber, p.withdrawnAt !== null])).toEqual([
      [a.id, 1, true],
      [b.id, 2, false],
    ]);
    expect(rows[0].paymentMethodId).toBeNull(); // released
    expect(rows[0].chargeStatus).toBe("none");
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([c.committedCount, c.pledgeCount, Number(c.raisedCents)]).toEqual([1, 1, 1500]);
    const mail = await db.emailOutbox.findMany({
      where: { toEmail: a.email, subject: { contains: "withdrew" } },
    });
    expect(mail).toHaveLength(1);
    expect(mail[0].text).toContain("Nothing was charged");

    // A second withdrawal finds nothing to withdraw.
    await expect(withdrawCommitment(a, { campaignId: campaign.id })).rejects.toThrow(
      WITHDRAW_TEXTS.notCommitted,
    );

    // They commit again: a new pledge, a new number (3), never #1 again.
    await commitToCampaign(a, { campaignId: campaign.id, paymentMethodId: await demoCard(a.id) });
    const again = await db.pledge.findFirstOrThrow({
      where: { campaignId: campaign.id, userId: a.id, withdrawnAt: null },
    });
    expect(again.attendeeNumber).toBe(3);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).committedCount).toBe(2);
  });

  it("after the tip the commitment is binding; signed out, a stranger or a bad id are refused and change nothing", async () => {
    const campaign = await createCampaign({ goal: 1, ticketPriceCents: 0 });
    const [a, stranger] = await users(2);
    const committed = await commitToCampaign(a, { campaignId: campaign.id });
    expect(committed.crossed).toBe(true);
    await expect(withdrawCommitment(a, { campaignId: campaign.id })).rejects.toThrow(WITHDRAW_TEXTS.binding);
    await expect(withdrawCommitment(null, { campaignId: campaign.id })).rejects.toThrow(
      "Please sign in first.",
    );
    await expect(withdrawCommitment(stranger, { campaignId: campaign.id })).rejects.toThrow(
      WITHDRAW_TEXTS.notCommitted,
    );
    await expect(withdrawCommitment(a, { campaignId: "x'; drop" })).rejects.toThrow("Campaign not found");
    await expect(withdrawCommitment(a, { campaignId: campaign.id, extra: 1 })).rejects.toThrow(
      "Campaign not found",
    );
    const p = await db.pledge.findFirstOrThrow({ where: { campaignId: campaign.id } });
    expect(p.withdrawnAt).toBeNull();
  });

  it("a date or place change after the tip lets earlier backers withdraw for 7 days with a refund of their charge", async () => {
    const organizer = await createUser();
    const start = new Date(Date.now() + 20 * 86_400_000);
    const campaign = await createCampaign({
      creatorId: organizer.id,
      goal: 2,
      ticketPriceCents: 2500,
      startsAt: start,
      timeZone: "America/New_York",
      venue: "Old Hall",
    });
    const [a, b] = await users(2);
    await commitToCampaign(a, { campaignId: campaign.id, paymentMethodId: await demoCard(a.id) });
    await commitToCampaign(b, { campaignId: campaign.id, paymentMethodId: await demoCard(b.id) });
    await chargeCampaign(campaign.id, {}, { charged: 0, failed: 0, unknown: 0 });
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("charged");
    await expect(withdrawCommitment(a, { campaignId: campaign.id })).rejects.toThrow(WITHDRAW_TEXTS.binding);

    const view = await getEditView({ id: organizer.id, isAdmin: false }, campaign.id);
    await updateCampaign({ id: organizer.id, isAdmin: false }, campaign.id, {
      ...view!.values,
      venue: "New Hall",
    });
    const changed = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(changed.changeWithdrawUntil!.getTime() - changed.changedAfterTipAt!.getTime()).toBe(
      7 * 86_400_000,
    );
    const mail = await db.emailOutbox.findFirstOrThrow({
      where: { toEmail: a.email, subject: { startsWith: "New date or place" } },
    });
    expect(mail.text).toMatch(/you may withdraw until .+ and any charge is refunded in full/);

    const result = await withdrawCommitment(a, { campaignId: campaign.id });
    expect(result.refundCents).toBe(2500);
    const pa = await db.pledge.findFirstOrThrow({ where: { campaignId: campaign.id, userId: a.id } });
    expect(pa.chargeStatus).toBe("refunded");
    expect(pa.refundId).not.toBeNull();
    expect(pa.withdrawnAt).not.toBeNull();

    // The window closes after 7 days.
    const later = new Date(changed.changeWithdrawUntil!.getTime() + 1000);
    await expect(withdrawCommitment(b, { campaignId: campaign.id }, { now: later })).rejects.toThrow(
      WITHDRAW_TEXTS.binding,
    );
  });

  it("100 concurrent commits and withdrawals on a goal-50 paid event: one tip, counts equal the live pledges, no withdrawn pledge charged", async () => {
    const campaign = await createCampaign({ goal: 50, ticketPriceCents: 1000 });
    const early = await users(40);
    const late = await users(60);
    for (const u of early)
      await commitToCampaign(u, { campaignId: campaign.id, paymentMethodId: await demoCard(u.id) });
    const lateCards = await Promise.all(late.map((u) => demoCard(u.id)));

    const ops = [
      ...early.map((u) => () => settle(withdrawCommitment(u, { campaignId: campaign.id }))),
      ...late.map(
        (u, i) => () =>
          settle(commitToCampaign(u, { campaignId: campaign.id, paymentMethodId: lateCards[i] })),
      ),
    ].sort(() => Math.random() - 0.5);
    // spread over a moment, so withdrawals land both before and after the tip
    const outcomes = await Promise.all(
      ops.map((op) =>
        new Promise((r) => setTimeout(r, Math.random() * 300)).then((): Promise<Settled> => op()),
      ),
    );
    const commits = outcomes.filter((o) => o.ok && "crossed" in (o.value as object));
    const crossings = commits.filter((o) => o.ok && (o.value as { crossed: boolean }).crossed);
    const withdrawals = outcomes.filter((o) => o.ok && "refundCents" in (o.value as object));
    const refusals = new Set(outcomes.filter((o) => !o.ok).map((o) => !o.ok && o.message));
    console.info(
      `[withdraw race] commits=${commits.length} withdrawals=${withdrawals.length} crossings=${crossings.length} refusals=${[...refusals].join(" | ")}`,
    );

    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    const live = await db.pledge.count({ where: { campaignId: campaign.id, withdrawnAt: null } });
    expect(c.committedCount).toBe(live);
    expect(c.pledgeCount).toBe(live);
    expect(Number(c.raisedCents)).toBe(live * 1000);
    expect(crossings.length).toBe(live >= 50 ? 1 : 0);
    expect(c.status).toBe(live >= 50 ? "funded" : "pending");
    for (const m of refusals)
      expect([WITHDRAW_TEXTS.binding, "This event is no longer accepting commitments."]).toContain(m);

    await chargeCampaign(campaign.id, {}, { charged: 0, failed: 0, unknown: 0 });
    const withdrawnCharged = await db.pledge.count({
      where: {
        campaignId: campaign.id,
        withdrawnAt: { not: null },
        OR: [{ charged: true }, { chargeStatus: { not: "none" } }],
      },
    });
    expect(withdrawnCharged).toBe(0);
    if (live >= 50) {
      const charged = await db.pledge.count({
        where: { campaignId: campaign.id, chargeStatus: "succeeded" },
      });
      expect(charged).toBe(live);
    }
  });
});
