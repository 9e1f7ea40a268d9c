import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createCampaign as createEvent } from "@/lib/campaigns/service";
import { emptyCampaignForm } from "@/lib/campaigns/schema";
import { REFUND_BONUS_TEXTS } from "@/lib/campaigns/texts";
import { createCampaign, createUser } from "@/tests/helpers/factories";

/*
 * Issue 31: the refund bonus is the organizer's own promise, which PactNexus neither holds nor pays:
 * paid events only, 1–20%, and the database refuses anything else whoever writes it. The migration
 * that introduced the rule clamped existing values and kept the first deadline of every event.
 */

const MIGRATION = fs.readFileSync(
  path.resolve(__dirname, "../../prisma/migrations/20261126085749_deadline_cap_refund_bonus/migration.sql"),
  "utf8",
);
/** The migration's data statements, run again on rows written as they could be before it. */
const migrationUpdates = MIGRATION.split(";")
  .map((s) => s.replace(/^\s*--.*$/gm, "").trim())
  .filter((s) => s.startsWith("UPDATE"));

const asViewer = (u: { id: string; email: string; name: string | null; isAdmin: boolean }) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  isAdmin: u.isAdmin,
});

class Rollback<T> extends Error {
  constructor(readonly value: T) {
    super("rollback");
  }
}
/** Runs `fn` in a transaction that is always rolled back, and returns what it returned. */
async function rolledBack<T>(fn: (tx: Parameters<Parameters<typeof db.$transaction>[0]>[0]) => Promise<T>) {
  try {
    await db.$transaction(async (tx) => {
      throw new Rollback(await fn(tx));
    });
  } catch (e) {
    if (e instanceof Rollback) return e.value as T;
    throw e;
  }
  throw new Error("unreachable");
}

describe("the refund bonus in the database (issue 31)", () => {
  const setBonus = (id: string, percent: number) =>
    db.campaign.update({ where: { id }, data: { refundBonusPercentage: percent } });

  it("is 0 to 20 percent, and only on a paid event (a price, or a crowdfund)", async () => {
    const paid = await createCampaign({ ticketPriceCents: 900 });
    await expect(setBonus(paid.id, 21)).rejects.toThrow(/Campaign_refundBonus_range/);
    await expect(setBonus(paid.id, 20)).resolves.toMatchObject({ refundBonusPercentage: 20 });
    const free = await createCampaign({ ticketPriceCents: 0 });
    await expect(setBonus(free.id, 5)).rejects.toThrow(/Campaign_refundBonus_paid_only/);
    const crowdfund = await createCampaign({ ticketPriceCents: 0, pactType: "crowdfund" });
    await expect(setBonus(crowdfund.id, 5)).resolves.toMatchObject({ refundBonusPercentage: 5 });
    const unset = await createCampaign({ ticketPriceCents: 0, pactType: null });
    await expect(setBonus(unset.id, 5)).rejects.toThrow(/Campaign_refundBonus_paid_only/);
    // a paid event with a bonus cannot be made free underneath it
    await expect(
      db.campaign.update({ where: { id: paid.id }, data: { ticketPriceCents: 0 } }),
    ).rejects.toThrow(/Campaign_refundBonus_paid_only/);

    const user = await createUser();
    await expect(
      db.campaignDraft.create({
        data: { creatorId: user.id, ticketPriceCents: 500, refundBonusPercentage: 21 },
      }),
    ).rejects.toThrow(/CampaignDraft_refundBonus_range/);
    await expect(
      db.campaignDraft.create({ data: { creatorId: user.id, refundBonusPercentage: 10 } }),
    ).rejects.toThrow(/CampaignDraft_refundBonus_paid_only/);
  });

  it("the create path refuses a bonus on a free event and stores one on a paid event", async () => {
    const user = asViewer(await createUser());
    const form = {
      ...emptyCampaignForm,
      title: "Picnic in the park",
      description: "Sandwiches, frisbee and sunshine for everyone.",
      goal: "12",
      deadline: new Date(Date.now() + 7 * 86400_000).toISOString(),
      refundBonusEnabled: true,
      refundBonusPercentage: "15",
    };
    await expect(createEvent(user, { ...form, ticketPrice: "" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      fieldErrors: { refundBonusPercentage: REFUND_BONUS_TEXTS.paidOnly },
    });
    await expect(
      createEvent(user, { ...form, ticketPrice: "9", refundBonusPercentage: "50" }),
    ).rejects.toMatchObject({
      fieldErrors: { refundBonusPercentage: REFUND_BONUS_TEXTS.range },
    });
    expect(await db.campaign.count({ where: { creatorId: user.id } })).toBe(0);
    const { id } = await createEvent(user, { ...form, ticketPrice: "9" });
    const row = await db.campaign.findUniqueOrThrow({ where: { id } });
    expect(row.refundBonusPercentage).toBe(15);
    // issue 31 item 4: the deadline it was created with is kept for the extension cap
    expect(row.originalDeadline).toEqual(row.deadline);
  });

  it("the migration clamped values above 20, removed free events' bonuses and kept each first deadline", async () => {
    expect(migrationUpdates.length).toBeGreaterThanOrEqual(5);
    const user = await createUser();
    const paid50 = await createCampaign({ ticketPriceCents: 900 });
    const paid15 = await createCampaign({ ticketPriceCents: 900 });
    const free10 = await createCampaign({ ticketPriceCents: 0 });
    const crowdfund30 = await createCampaign({ ticketPriceCents: 0, pactType: "crowdfund" });
    const result = await rolledBack(async (tx) => {
      // the rows as they could be before the migration: its constraints lifted inside this transaction
      for (const [table, name] of [
        ["Campaign", "Campaign_refundBonus_range"],
        ["Campaign", "Campaign_refundBonus_paid_only"],
        ["Campaign", "Campaign_originalDeadline_set"],
        ["CampaignDraft", "CampaignDraft_refundBonus_range"],
        ["CampaignDraft", "CampaignDraft_refundBonus_paid_only"],
      ])
        await tx.$executeRawUnsafe(`ALTER TABLE "${table}" DROP CONSTRAINT "${name}"`);
      const set = (id: string, pct: number) =>
        tx.campaign.update({ where: { id }, data: { refundBonusPercentage: pct, originalDeadline: null } });
      await set(paid50.id, 50);
      await set(paid15.id, 15);
      await set(free10.id, 10);
      await set(crowdfund30.id, 30);
      const drafts = await Promise.all([
        tx.campaignDraft.create({
          data: {
            creatorId: user.id,
            ticketPriceCents: 500,
            refundBonusEnabled: true,
            refundBonusPercentage: 50,
          },
        }),
        tx.campaignDraft.create({
          data: { creatorId: user.id, refundBonusEnabled: true, refundBonusPercentage: 10 },
        }),
        tx.campaignDraft.create({
          data: {
            creatorId: user.id,
            pactType: "crowdfund",
            refundBonusEnabled: true,
            refundBonusPercentage: 25,
          },
        }),
      ]);
      for (const sql of migrationUpdates) await tx.$executeRawUnsafe(sql);
      const ids = [paid50, paid15, free10, crowdfund30].map((c) => c.id);
      return {
        campaigns: await tx.campaign.findMany({
          where: { id: { in: ids } },
          select: { id: true, refundBonusPercentage: true, deadline: true, originalDeadline: true },
        }),
        drafts: await tx.campaignDraft.findMany({
          where: { id: { in: drafts.map((d) => d.id) } },
          select: { id: true, refundBonusEnabled: true, refundBonusPercentage: true },
        }),
        draftIds: drafts.map((d) => d.id),
      };
    });
    const bonus = (id: string) => result.campaigns.find((c) => c.id === id)?.refundBonusPercentage;
    expect([bonus(paid50.id), bonus(paid15.id), bonus(free10.id), bonus(crowdfund30.id)]).toEqual([
      20, 15, 0, 20,
    ]);
    for (const c of result.campaigns) expect(c.originalDeadline).toEqual(c.deadline);
    const draft = (i: number) => result.drafts.find((d) => d.id === result.draftIds[i]);
    expect(draft(0)).toMatchObject({ refundBonusEnabled: true, refundBonusPercentage: 20 });
    expect(draft(1)).toMatchObject({ refundBonusEnabled: false, refundBonusPercentage: 0 });
    expect(draft(2)).toMatchObject({ refundBonusEnabled: true, refundBonusPercentage: 20 });
    // and the constraints are back (the transaction rolled back)
    await expect(setBonus(paid50.id, 50)).rejects.toThrow(/Campaign_refundBonus_range/);
  });

  it("every new event keeps the deadline it was created with, whoever inserts it", async () => {
    const deadline = new Date(Date.now() + 3 * 86400_000);
    const c = await createCampaign({ deadline });
    expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).originalDeadline).toEqual(deadline);
    await expect(
      db.campaign.update({ where: { id: c.id }, data: { originalDeadline: null } }),
    ).rejects.toThrow(/Campaign_originalDeadline_set/);
  });
});
