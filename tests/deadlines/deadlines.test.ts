import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { expireCampaign, runDeadlines, sendDeadlineReminders } from "@/lib/deadlines/service";
import { releaseSavedCards } from "@/lib/ledger/cards";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

const HOUR = 3600_000;
const emailsFor = (campaignId: string, prefix: string) =>
  db.emailOutbox.findMany({
    where: { dedupeKey: { startsWith: `${prefix}:${campaignId}:` } },
    orderBy: { toEmail: "asc" },
    select: { toEmail: true, subject: true, text: true },
  });

async function pastDeadlineEvent(goal = 3) {
  const creator = await createUser({ email: `org-${Math.random().toString(36).slice(2, 8)}@example.test` });
  const campaign = await createCampaign({
    creatorId: creator.id,
    goal,
    ticketPriceCents: 2000,
    createdAt: new Date(Date.now() - 10 * 24 * HOUR),
    deadline: new Date(Date.now() + 7 * 24 * HOUR),
  });
  const backers = [await createUser(), await createUser()];
  for (const b of backers)
    await createPledge(campaign.id, b.id, { paymentMethodId: `pm_demo_${b.id}`, amountCents: 2000 });
  await db.campaign.update({ where: { id: campaign.id }, data: { committedCount: 2, pledgeCount: 2 } });
  // The deadline passes (set directly: no app path moves a deadline).
  await db.$executeRaw`UPDATE "Campaign" SET deadline = now() - interval '1 minute' WHERE id = ${campaign.id}`;
  return { creator, campaign, backers };
}

describe("expiring events at the deadline", () => {
  it("expires a pending event below the threshold once, emailing every committer and the organizer exactly once", async () => {
    const { creator, campaign, backers } = await pastDeadlineEvent();
    const runs = await Promise.all([
      expireCampaign(campaign.id),
      expireCampaign(campaign.id),
      expireCampaign(campaign.id),
    ]);
    expect(runs.filter(Boolean)).toHaveLength(1);
    expect(await expireCampaign(campaign.id)).toBe(false); // a retried job
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(c.status).toBe("expired");
    expect(c.lastStatusUpdate).not.toBeNull();

    const emails = await emailsFor(campaign.id, "expired");
    expect(emails.map((e) => e.toEmail).sort()).toEqual(
      [creator.email, ...backers.map((b) => b.email)].sort(),
    );
    expect(emails[0].subject).toBe(`"${campaign.title}" did not reach its goal — nobody was charged`);
    expect(emails.every((e) => e.text.includes("2 of 3 commitments"))).toBe(true);
  });

  it("leaves alone events before their deadline, at their threshold, or already decided", async () => {
    const future = await createCampaign({ goal: 5 });
    const { campaign: met } = await pastDeadlineEvent(2); // 2 committed, goal 2
    const charged = await createCampaign({ status: "charged" });
    await db.$executeRaw`UPDATE "Campaign" SET deadline = now() - interval '1 hour' WHERE id = ${charged.id}`;
    for (const c of [future, met, charged]) expect(await expireCampaign(c.id)).toBe(false);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: met.id } })).status).toBe("pending");
    expect((await db.campaign.findUniqueOrThrow({ where: { id: charged.id } })).status).toBe("charged");
    expect(await emailsFor(met.id, "expired")).toEqual([]);
  });

  it("releases the saved cards of expired events (demo mode: the pledge forgets the card), resumably", async () => {
    const { campaign } = await pastDeadlineEvent();
    const run = await runDeadlines();
    expect(run.expired).toBeGreaterThanOrEqual(1);
    const pledges = await db.pledge.findMany({ where: { campaignId: campaign.id } });
    expect(pledges.map((p) => p.paymentMethodId)).toEqual([null, null]);
    expect(await releaseSavedCards()).toBe(0);
    // Running the whole job again changes nothing and queues nothing new.
    const before = await db.emailOutbox.count();
    await runDeadlines();
    expect(await db.emailOutbox.count()).toBe(before);
  });
});

describe("48-hour reminders", () => {
  it("reminds the organizer and committers once, with how many more are needed, skipping users who unsubscribed", async () => {
    const creator = await createUser();
    const now = new Date();
    const campaign = await createCampaign({
      creatorId: creator.id,
      goal: 8,
      createdAt: new Date(now.getTime() - 5 * 24 * HOUR),
      deadline: new Date(now.getTime() + 40 * HOUR),
    });
    const backer = await createUser();
    const optedOut = await createUser();
    await db.user.update({ where: { id: optedOut.id }, data: { emailOptOut: true } });
    await createPledge(campaign.id, backer.id);
    await createPledge(campaign.id, optedOut.id);
    await db.campaign.update({ where: { id: campaign.id }, data: { committedCount: 2 } });

    const results = await Promise.all([sendDeadlineReminders(now), sendDeadlineReminders(now)]);
    expect(results.reduce((a, b) => a + b, 0)).toBe(1);
    expect(await sendDeadlineReminders(now)).toBe(0);
    const emails = await emailsFor(campaign.id, "reminder-48h");
    expect(emails.map((e) => e.toEmail).sort()).toEqual([backer.email, creator.email].sort());
    expect(emails[0].subject).toBe(`"${campaign.title}" needs 6 more — 48 hours left`);
    expect(emails[0].text).toContain("/unsubscribe?token=");
  });

  it("does not remind events further than 48 hours out, created inside the window, or at the threshold", async () => {
    const now = new Date();
    const far = await createCampaign({
      createdAt: new Date(now.getTime() - 5 * 24 * HOUR),
      deadline: new Date(now.getTime() + 60 * HOUR),
    });
    const late = await createCampaign({
      createdAt: new Date(now.getTime() - 2 * HOUR),
      deadline: new Date(now.getTime() + 30 * HOUR),
    });
    const met = await createCampaign({
      goal: 1,
      createdAt: new Date(now.getTime() - 5 * 24 * HOUR),
      deadline: new Date(now.getTime() + 30 * HOUR),
    });
    await db.campaign.update({ where: { id: met.id }, data: { committedCount: 1 } });
    await sendDeadlineReminders(now);
    for (const c of [far, late, met]) expect(await emailsFor(c.id, "reminder-48h")).toEqual([]);
  });

  it("events created inside the window never fill a batch: the nearest eligible deadline is reminded (issue 19)", async () => {
    const now = new Date();
    // more late-created events than one batch takes, all due before the eligible one
    for (let i = 0; i < 6; i++)
      await createCampaign({
        createdAt: new Date(now.getTime() - 2 * HOUR),
        deadline: new Date(now.getTime() + (10 + i) * HOUR),
      });
    const eligible = await createCampaign({
      createdAt: new Date(now.getTime() - 5 * 24 * HOUR),
      deadline: new Date(now.getTime() + 40 * HOUR),
    });
    const later = await createCampaign({
      createdAt: new Date(now.getTime() - 5 * 24 * HOUR),
      deadline: new Date(now.getTime() + 41 * HOUR),
    });
    expect(await sendDeadlineReminders(now, 1)).toBe(1);
    expect(await emailsFor(eligible.id, "reminder-48h")).not.toEqual([]);
    expect(await emailsFor(later.id, "reminder-48h")).toEqual([]);
    expect(await sendDeadlineReminders(now, 1)).toBe(1);
    expect(await emailsFor(later.id, "reminder-48h")).not.toEqual([]);
  });
});
