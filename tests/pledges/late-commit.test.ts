import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { runCharging } from "@/lib/charging/service";
import { COMMIT_MESSAGES } from "@/lib/access/pledge-policy";
import { createCampaign, createUser } from "../helpers/factories";

const asViewer = async () => {
  const u = await createUser();
  return { id: u.id, email: u.email, name: u.name, isAdmin: false };
};

async function demoCard(userId: string): Promise<string> {
  const id = `pm_demo_late${Math.random().toString(16).slice(2, 14)}`;
  await db.demoPaymentMethod.create({
    data: { id, userId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, behavior: "ok" },
  });
  return id;
}

async function campaignKeepingOpen(opts: { goal: number; ticketPriceCents: number; accept: boolean }) {
  const c = await createCampaign({ goal: opts.goal, ticketPriceCents: opts.ticketPriceCents });
  await db.campaign.update({ where: { id: c.id }, data: { acceptAfterThreshold: opts.accept } });
  return c;
}

// issue 7: "Keep accepting commitments after the threshold" (default off) — later commits are charged at once.
describe("commitments after the threshold", () => {
  it("are refused by default once the event is confirmed (SPEC)", async () => {
    const c = await campaignKeepingOpen({ goal: 1, ticketPriceCents: 0, accept: false });
    await commitToCampaign(await asViewer(), { campaignId: c.id });
    await expect(commitToCampaign(await asViewer(), { campaignId: c.id })).rejects.toThrow(
      COMMIT_MESSAGES.closed,
    );
    expect(await db.pledge.count({ where: { campaignId: c.id } })).toBe(1);
  });

  it("free event: a late commitment is confirmed on arrival, with its Event Confirmed! email", async () => {
    const c = await campaignKeepingOpen({ goal: 2, ticketPriceCents: 0, accept: true });
    await commitToCampaign(await asViewer(), { campaignId: c.id });
    const tipping = await commitToCampaign(await asViewer(), { campaignId: c.id });
    expect(tipping).toMatchObject({ crossed: true, late: false, status: "charged" });

    const lateViewer = await asViewer();
    const late = await commitToCampaign(lateViewer, { campaignId: c.id });
    expect(late).toMatchObject({
      crossed: false,
      late: true,
      thresholdMet: true,
      status: "charged",
      committedCount: 3,
    });
    const pledge = await db.pledge.findFirstOrThrow({ where: { campaignId: c.id, userId: lateViewer.id } });
    expect(pledge).toMatchObject({
      charged: true,
      verified: true,
      chargeType: "free",
      chargeStatus: "succeeded",
    });
    const campaign = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect(campaign).toMatchObject({ status: "charged", totalCharged: 3, committedCount: 3 });
    const emails = await db.emailOutbox.findMany({ where: { toEmail: lateViewer.email } });
    expect(emails.map((e) => e.subject).some((s) => s.includes("Event Confirmed!"))).toBe(true);
  });

  it("free event: a burst of late commitments (written in groups) is confirmed on arrival, each told so once", async () => {
    const c = await campaignKeepingOpen({ goal: 2, ticketPriceCents: 0, accept: true });
    await commitToCampaign(await asViewer(), { campaignId: c.id });
    await commitToCampaign(await asViewer(), { campaignId: c.id });
    const viewers = await Promise.all(Array.from({ length: 40 }, () => asViewer()));
    const results = await Promise.all(viewers.map((v) => commitToCampaign(v, { campaignId: c.id })));
    for (const r of results)
      expect(r).toMatchObject({
        crossed: false,
        late: true,
        thresholdMet: true,
        status: "charged",
        member: true,
      });
    expect(results.map((r) => r.committedCount).sort((a, b) => a - b)).toEqual(
      Array.from({ length: 40 }, (_, i) => i + 3),
    );
    const pledges = await db.pledge.findMany({ where: { campaignId: c.id } });
    expect(pledges).toHaveLength(42);
    for (const p of pledges)
      expect(p).toMatchObject({
        charged: true,
        verified: true,
        chargeType: "free",
        chargeStatus: "succeeded",
      });
    expect(pledges.every((p) => p.memberSince !== null && p.chargedAt !== null)).toBe(true);
    // groups happened: the late pledges were written at fewer moments than there are of them
    expect(new Set(pledges.map((p) => p.createdAt.getTime())).size).toBeLessThan(42);
    const campaign = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect(campaign).toMatchObject({
      status: "charged",
      totalCharged: 42,
      committedCount: 42,
      pledgeCount: 42,
    });
    const emails = await db.emailOutbox.findMany({ where: { toEmail: { in: viewers.map((v) => v.email) } } });
    for (const v of viewers) {
      const mine = emails.filter((e) => e.toEmail === v.email).map((e) => e.subject);
      expect(mine.filter((s) => s.includes("Event Confirmed!"))).toHaveLength(1);
      expect(mine).toHaveLength(2);
    }
  });

  it("paid event: a late commitment is charged at once and exactly once", async () => {
    const c = await campaignKeepingOpen({ goal: 1, ticketPriceCents: 1200, accept: true });
    const first = await asViewer();
    await commitToCampaign(first, { campaignId: c.id, paymentMethodId: await demoCard(first.id) });
    await runCharging(c.id);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).status).toBe("charged");

    const lateViewer = await asViewer();
    const late = await commitToCampaign(lateViewer, {
      campaignId: c.id,
      paymentMethodId: await demoCard(lateViewer.id),
    });
    expect(late).toMatchObject({ late: true, crossed: false, free: false });
    await Promise.all([runCharging(c.id), runCharging(c.id)]);
    const pledges = await db.pledge.findMany({ where: { campaignId: c.id } });
    expect(pledges.every((p) => p.charged && p.chargeStatus === "succeeded" && p.chargeAttempts === 1)).toBe(
      true,
    );
    expect(
      await db.demoPaymentIntent.count({
        where: { status: "succeeded", paymentMethodId: { in: pledges.map((p) => p.paymentMethodId!) } },
      }),
    ).toBe(2);
    const campaign = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect(campaign.status).toBe("charged");
    expect(campaign.totalCharged).toBe(2);
  });
});
