import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { withdrawCommitment } from "@/lib/pledges/withdraw";
import { getMyCommitment, listMyCommitments } from "@/lib/pledges/mine";
import { getManageView } from "@/lib/pledges/manage-queries";
import { getCommitmentsCsv } from "@/lib/pledges/commitments-csv";
import { getCommitPanel, listEventCommitments } from "@/lib/pledges/queries";
import { campaignVersion } from "@/lib/cache/visitor-version";
import { updateCampaign } from "@/lib/campaigns/edit";
import { getEditView } from "@/lib/campaigns/edit-view";
import { CAPACITY_TEXTS } from "@/lib/campaigns/fields";
import { COMMIT_MESSAGES } from "@/lib/access/pledge-policy";
import { createCampaign, createUser } from "@/tests/helpers/factories";

// issue 20: every surface shows the waitlist from the campaign core's answers (the money paths are
// tests/pledges/waitlist.test.ts, against the fake Stripe).

type V = { id: string; email: string; name: string | null; isAdmin: boolean };
const viewer = (u: { id: string; email: string; name?: string | null; isAdmin?: boolean }): V => ({
  id: u.id,
  email: u.email,
  name: u.name ?? null,
  isAdmin: u.isAdmin ?? false,
});
const person = async (name: string) => viewer(await createUser({ name }));

async function demoCard(userId: string): Promise<string> {
  const id = `pm_demo_ws${Math.random().toString(16).slice(2, 14)}`;
  await db.demoPaymentMethod.create({
    data: { id, userId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, behavior: "ok" },
  });
  return id;
}

describe("the waitlist on every surface", () => {
  it("a free event: the full event offers Join the waitlist; a waiting person is counted nowhere and listed to nobody but the organizer; a place given up promotes them, confirmed at once", async () => {
    const organizer = await createUser();
    const c = await createCampaign({ creatorId: organizer.id, goal: 2, capacity: 2 });
    const [a, b, w] = [await person("Ann"), await person("Bea"), await person(`Wanda Waiting`)];
    await commitToCampaign(a, { campaignId: c.id });
    await commitToCampaign(b, { campaignId: c.id }); // tips: confirmed, full
    const v0 = await campaignVersion(c.id);

    const panel = await getCommitPanel(c.id, w);
    expect(panel).toMatchObject({ cta: "waitlist", capacity: 2, waitlistCount: 0 });
    const joined = await commitToCampaign(w, { campaignId: c.id });
    expect(joined).toMatchObject({ waitlisted: true, position: 1, committedCount: 2 });
    // the cached copies' version moved with the waitlist
    expect(await campaignVersion(c.id)).not.toBe(v0);
    expect(await getCommitPanel(c.id, w)).toMatchObject({ cta: "waiting", waitlistCount: 1 });
    await expect(commitToCampaign(w, { campaignId: c.id })).rejects.toThrow(COMMIT_MESSAGES.alreadyCommitted);
    // the public list has the two who are in, not her
    const list = await listEventCommitments(c.id, null);
    expect([list.items.length, list.total]).toEqual([2, 2]);
    expect(JSON.stringify(list)).not.toContain("Wanda");
    // she sees her place; the organizer sees her on the manage page and in the CSV
    expect(await getMyCommitment(w, { campaignId: c.id })).toMatchObject({
      state: "waitlisted",
      stateText: "On the waitlist — #1 in line",
      waitlist: { position: 1, paused: false },
      withdraw: { kind: "open" },
    });
    const manage = await getManageView(c.id, viewer(organizer));
    expect(manage?.campaign).toMatchObject({ capacity: 2, waitlistCount: 1, committedCount: 2 });
    expect(manage?.commitments.find((p) => p.contributor === "Wanda Waiting")?.waitlistPosition).toBe(1);
    const csv = await getCommitmentsCsv(c.id, viewer(organizer));
    expect(csv?.csv).toMatch(/"Wanda Waiting",[^\r]*"Waitlisted #1",[^\r]*,"1",""/);
    const join = await db.emailOutbox.findFirstOrThrow({ where: { toEmail: w.email } });
    expect(join.subject).toBe(`You're on the waitlist for "${c.title}"`);
    expect(join.text).toContain("you're in automatically");

    // a place opens: Ann withdraws... after the tip she can't (binding) — a free event's place is given up
    const { giveUpPlace } = await import("@/lib/pledges/give-up");
    await giveUpPlace(a, { campaignId: c.id });
    const mine = await getMyCommitment(w, { campaignId: c.id });
    expect(mine).toMatchObject({ state: "confirmed", waitlist: null });
    expect(mine?.promotedAt).not.toBeNull();
    const row = await db.pledge.findFirstOrThrow({
      where: { campaignId: c.id, userId: w.id, withdrawnAt: null },
    });
    expect(row).toMatchObject({
      charged: true,
      chargeType: "free",
      chargeStatus: "succeeded",
      waitlistedAt: null,
    });
    const after = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect([after.committedCount, after.pledgeCount, after.waitlistCount, after.totalCharged]).toEqual([
      2, 2, 0, 2,
    ]);
    expect(
      await db.emailOutbox.count({ where: { toEmail: w.email, subject: { contains: "A place opened" } } }),
    ).toBe(1);
    const history = await listMyCommitments(a);
    expect(history.find((m) => m.campaignId === c.id)?.stateText).toMatch(
      /^Gave up your place on .* — never charged$/,
    );
  });

  it("leaving the waitlist moves everyone behind up; the capacity can be raised (promoting the first in line) but not lowered or lifted once people committed", async () => {
    const organizer = await createUser();
    const c = await createCampaign({
      creatorId: organizer.id,
      goal: 1,
      capacity: 1,
      ticketPriceCents: 700,
      deadline: new Date(Date.now() + 3 * 86_400_000),
      startsAt: new Date(Date.now() + 6 * 86_400_000),
      timeZone: "Europe/Paris",
    });
    const people = [await person("In"), await person("First"), await person("Second"), await person("Third")];
    for (const p of people)
      await commitToCampaign(p, { campaignId: c.id, paymentMethodId: await demoCard(p.id) });
    expect((await getMyCommitment(people[3], { campaignId: c.id }))?.waitlist?.position).toBe(3);
    await withdrawCommitment(people[1], { campaignId: c.id }); // leaves the line
    expect((await getMyCommitment(people[3], { campaignId: c.id }))?.waitlist?.position).toBe(2);
    expect(
      await db.emailOutbox.count({ where: { toEmail: people[1].email, subject: { contains: "withdrew" } } }),
    ).toBe(1);

    const form = async (changes: object) => ({
      ...(await getEditView(viewer(organizer), c.id))!.values,
      ...changes,
    });
    const refused = (p: Promise<unknown>) =>
      p.then(
        () => null,
        (e: { message: string }) => e.message,
      );
    expect(await refused(updateCampaign(viewer(organizer), c.id, await form({ capacity: "" })))).toBe(
      CAPACITY_TEXTS.lowered(1),
    );
    expect(await refused(updateCampaign(viewer(organizer), c.id, await form({ capacity: "0" })))).toBe(
      CAPACITY_TEXTS.invalid,
    );
    await updateCampaign(viewer(organizer), c.id, await form({ capacity: "2" }));
    // "Second" was first in line: promoted into the new place (charged by the charging job)
    const second = await db.pledge.findFirstOrThrow({
      where: { campaignId: c.id, userId: people[2].id, withdrawnAt: null },
    });
    expect([second.waitlistedAt, second.promotedAt !== null, second.chargeStatus]).toEqual([
      null,
      true,
      "none",
    ]);
    expect((await getMyCommitment(people[3], { campaignId: c.id }))?.waitlist?.position).toBe(1);
    expect(await refused(updateCampaign(viewer(organizer), c.id, await form({ capacity: "1" })))).toMatch(
      /Capacity (can only be raised|must be)/,
    );
    const after = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect([after.capacity, after.committedCount, after.waitlistCount]).toEqual([2, 2, 1]);
  });

  it("the waiting never learn an attendee-only address: not in the join email, not in a change email; a promotion sends no stale 'commitment received'", async () => {
    const organizer = await createUser();
    const c = await createCampaign({
      creatorId: organizer.id,
      goal: 1,
      capacity: 1,
      deadline: new Date(Date.now() + 3 * 86_400_000),
      startsAt: new Date(Date.now() + 6 * 86_400_000),
      timeZone: "America/New_York",
      venue: "The Loft",
      area: "Tribeca",
      address: "77 Hidden Alley",
      addressPrivate: true,
    });
    const [a, w] = [await person("Ada"), await person("Wes")];
    await commitToCampaign(a, { campaignId: c.id });
    await commitToCampaign(w, { campaignId: c.id });
    const joined = await db.emailOutbox.findFirstOrThrow({ where: { toEmail: w.email } });
    expect(joined.text).toContain("The Loft");
    expect(joined.text).not.toContain("77 Hidden Alley");
    const values = { ...(await getEditView(viewer(organizer), c.id))!.values, venue: "The Attic" };
    await updateCampaign(viewer(organizer), c.id, values);
    const [toA, toW] = await Promise.all(
      [a, w].map((u) =>
        db.emailOutbox.findFirstOrThrow({
          where: { toEmail: u.email, subject: { startsWith: "New date or place" } },
        }),
      ),
    );
    expect(toA.text).toContain("77 Hidden Alley");
    expect(toW.text).not.toContain("77 Hidden Alley");
    expect(toW.text).toContain("You're still on the waitlist");
    expect(toW.attachments ?? []).toEqual([]);

    const { giveUpPlace } = await import("@/lib/pledges/give-up");
    await giveUpPlace(a, { campaignId: c.id });
    const { queueDerivedEmails } = await import("@/lib/derived-emails");
    await queueDerivedEmails();
    expect(
      await db.emailOutbox.count({ where: { toEmail: w.email, dedupeKey: { startsWith: "commit:" } } }),
    ).toBe(0);
  });

  it("a database CHECK refuses more in than the capacity, whatever writes it", async () => {
    const c = await createCampaign({ goal: 1, capacity: 1 });
    await expect(db.campaign.update({ where: { id: c.id }, data: { committedCount: 2 } })).rejects.toThrow(
      /Campaign_capacity_held_check/,
    );
    await expect(db.campaign.update({ where: { id: c.id }, data: { goal: 2 } })).rejects.toThrow(
      /Campaign_capacity_check/,
    );
  });
});
