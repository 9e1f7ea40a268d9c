import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import {
  MEMBER_EVENT,
  campaignVersion,
  eventPageGate,
  memberCampaignVersion,
  memberHomeVersion,
  organizerOfVersion,
} from "@/lib/cache/visitor-version";
import { COMMENTS_SHOWN, EVENT_COMMITMENTS_LIMIT } from "@/lib/campaigns/page-sizes";
import { createCampaign, createUser } from "@/tests/helpers/factories";

// Issue 8: who may be served a cached copy of a page meant for signed-in members, and which one.
// A wrong answer here would show someone a page made for another audience.

const minutesAgo = (m: number) => new Date(Date.now() - m * 60_000);

/** One commitment each for `users`, between 100 and 100 - n minutes ago (they fill the newest list). */
const pledgeEach = (campaignId: string, users: { id: string }[]) =>
  db.pledge.createMany({
    data: users.map((u, i) => ({
      campaignId,
      userId: u.id,
      contributor: "o",
      createdAt: minutesAgo(100 - i),
    })),
  });

/** A session at the user's current session version (0 until they sign out). */
const at0 = (userId: string) => ({ userId, version: 0 });

describe("memberCampaignVersion", () => {
  it("sorts people into the committed and not-committed copies, and sends everyone who sees themselves or more to the per-request page", async () => {
    const organizer = await createUser();
    const admin = await createUser({ isAdmin: true });
    const campaign = await createCampaign({ creatorId: organizer.id, goal: 500 });
    const early = await createUser(); // committed long ago: not among the newest commitments
    const stranger = await createUser();
    const recent = await createUser(); // committed lately: listed on the page
    const talker = await createUser(); // commented lately: listed on the page
    const oldTalker = await createUser(); // commented long ago, no pledge
    const others = await Promise.all(Array.from({ length: EVENT_COMMITMENTS_LIMIT }, () => createUser()));
    await db.pledge.create({
      data: { campaignId: campaign.id, userId: early.id, contributor: "e", createdAt: minutesAgo(500) },
    });
    await pledgeEach(campaign.id, others);
    await db.pledge.create({
      data: { campaignId: campaign.id, userId: recent.id, contributor: "r", createdAt: minutesAgo(1) },
    });
    await db.comment.create({
      data: { campaignId: campaign.id, authorId: oldTalker.id, text: "old", createdAt: minutesAgo(900) },
    });
    await db.comment.createMany({
      data: others.slice(0, COMMENTS_SHOWN - 1).map((u, i) => ({
        campaignId: campaign.id,
        authorId: u.id,
        text: "x",
        createdAt: minutesAgo(50 - i),
      })),
    });
    await db.comment.create({
      data: { campaignId: campaign.id, authorId: talker.id, text: "new", createdAt: minutesAgo(1) },
    });

    const NOW = Date.now();
    const base = (await campaignVersion(campaign.id, NOW))!;
    expect(await memberCampaignVersion(campaign.id, at0(early.id), NOW)).toBe(
      `${base}${MEMBER_EVENT.committed}`,
    );
    expect(await memberCampaignVersion(campaign.id, at0(stranger.id), NOW)).toBe(
      `${base}${MEMBER_EVENT.member}`,
    );
    expect(await memberCampaignVersion(campaign.id, at0(oldTalker.id), NOW)).toBe(
      `${base}${MEMBER_EVENT.member}`,
    );
    for (const u of [admin, recent, talker])
      expect(await memberCampaignVersion(campaign.id, at0(u.id))).toBeNull();
    // the organizer: a copy of their own (issue 35), named by them, which no one else's request computes
    const own = await memberCampaignVersion(campaign.id, at0(organizer.id), NOW);
    expect(own).toMatch(new RegExp(`^${base}${MEMBER_EVENT.organizer}[0-9a-z]+\\.${organizer.id}$`));
    expect(organizerOfVersion(own!)).toBe(organizer.id);
    for (const v of [base, `${base}${MEMBER_EVENT.member}`, `${base}${MEMBER_EVENT.committed}`])
      expect(organizerOfVersion(v)).toBeNull();
    expect(await memberCampaignVersion(campaign.id, at0("no-such-user"))).toBeNull();
    expect(await memberCampaignVersion("nosuchcampaign1", at0(early.id))).toBeNull();
    expect(await memberCampaignVersion("bad id!", at0(early.id))).toBeNull();
  });

  it("a backer who withdrew gets the not-committed copy, and the version moves (issue 18)", async () => {
    const campaign = await createCampaign({ goal: 50 });
    const backer = await createUser();
    const others = await Promise.all(Array.from({ length: EVENT_COMMITMENTS_LIMIT }, () => createUser()));
    const pledge = await db.pledge.create({
      data: { campaignId: campaign.id, userId: backer.id, contributor: "b", createdAt: minutesAgo(500) },
    });
    await pledgeEach(campaign.id, others);
    const before = await memberCampaignVersion(campaign.id, at0(backer.id));
    expect(before?.endsWith(MEMBER_EVENT.committed)).toBe(true);
    await db.pledge.update({ where: { id: pledge.id }, data: { withdrawnAt: new Date() } });
    const after = await memberCampaignVersion(campaign.id, at0(backer.id));
    expect(after?.endsWith(MEMBER_EVENT.member)).toBe(true);
    expect(after!.slice(0, -MEMBER_EVENT.member.length)).not.toBe(
      before!.slice(0, -MEMBER_EVENT.committed.length),
    );
  });

  it("moves with the data: a new comment is a new version for members too", async () => {
    const campaign = await createCampaign();
    const member = await createUser();
    const before = await memberCampaignVersion(campaign.id, at0(member.id));
    await db.comment.create({
      data: { campaignId: campaign.id, authorId: (await createUser()).id, text: "hello" },
    });
    const after = await memberCampaignVersion(campaign.id, at0(member.id));
    expect(after).not.toBe(before);
    expect(after!.endsWith(MEMBER_EVENT.member)).toBe(true);
  });
});

describe("the organizer's own copy (issue 35)", () => {
  it("moves with the event and with the organizer's own row; an admin who organizes and a pending event get none", async () => {
    const organizer = await createUser();
    const campaign = await createCampaign({ creatorId: organizer.id });
    const first = await memberCampaignVersion(campaign.id, at0(organizer.id));
    expect(organizerOfVersion(first!)).toBe(organizer.id);
    // a rename shows on their page (the organizer box): a new key
    await new Promise((r) => setTimeout(r, 5));
    await db.user.update({ where: { id: organizer.id }, data: { name: "Renamed Organizer" } });
    const renamed = await memberCampaignVersion(campaign.id, at0(organizer.id));
    expect(renamed).not.toBe(first);
    // a commitment on the event: a new key too
    await db.pledge.create({
      data: { campaignId: campaign.id, userId: (await createUser()).id, contributor: "x" },
    });
    const committed = await memberCampaignVersion(campaign.id, at0(organizer.id));
    expect(committed).not.toBe(renamed);
    expect(organizerOfVersion(committed!)).toBe(organizer.id);
    // another person on the same event never gets it
    expect(
      organizerOfVersion((await memberCampaignVersion(campaign.id, at0((await createUser()).id)))!),
    ).toBeNull();

    const adminOrganizer = await createUser({ isAdmin: true });
    const adminsEvent = await createCampaign({ creatorId: adminOrganizer.id });
    expect(await memberCampaignVersion(adminsEvent.id, at0(adminOrganizer.id))).toBeNull();
    const pending = await createCampaign({ creatorId: organizer.id, approvalStatus: "pending" });
    expect(await memberCampaignVersion(pending.id, at0(organizer.id))).toBeNull();
    // signed out since: no copy
    await db.user.update({ where: { id: organizer.id }, data: { sessionVersion: { increment: 1 } } });
    expect(await memberCampaignVersion(campaign.id, at0(organizer.id))).toBeNull();
  });
});

describe("memberHomeVersion", () => {
  it("is one copy for every non-admin; admins and unknown users get none", async () => {
    const [a, b] = [await createUser(), await createUser()];
    const admin = await createUser({ isAdmin: true });
    expect(await memberHomeVersion(at0(a.id))).toBe(await memberHomeVersion(at0(b.id)));
    expect(await memberHomeVersion(at0(a.id))).toMatch(/^member\./);
    expect(await memberHomeVersion(at0(admin.id))).toBeNull();
    expect(await memberHomeVersion(at0("no-such-user"))).toBeNull();
  });
});

describe("signed out since (issue 13: a copied cookie must not outlive sign-out)", () => {
  it("gets no member copy once the user's session version has moved", async () => {
    const campaign = await createCampaign();
    const member = await createUser();
    expect(await memberHomeVersion(at0(member.id))).toMatch(/^member\./);
    expect(await memberCampaignVersion(campaign.id, at0(member.id))).not.toBeNull();
    await db.user.update({ where: { id: member.id }, data: { sessionVersion: { increment: 1 } } });
    expect(await memberHomeVersion(at0(member.id))).toBeNull();
    expect(await memberCampaignVersion(campaign.id, at0(member.id))).toBeNull();
    expect(await memberCampaignVersion(campaign.id, { userId: member.id, version: 1 })).not.toBeNull();
  });
});

describe("an event page's version moves at the event's start (issue 16: onStart identities are revealed then)", () => {
  it("changes when the start passes, for visitors and members alike, and not before", async () => {
    const deadline = new Date(Date.now() + 2 * 24 * 3600_000);
    const startsAt = new Date(deadline.getTime() + 3 * 24 * 3600_000);
    const campaign = await createCampaign({ deadline, startsAt, identityRevelationType: "onStart" });
    const member = await createUser();
    const beforeStart = startsAt.getTime() - 1;
    const afterStart = startsAt.getTime() + 1;
    const v1 = (await campaignVersion(campaign.id, beforeStart))!;
    const v2 = (await campaignVersion(campaign.id, afterStart))!;
    expect(v1.endsWith("-e")).toBe(true); // deadline passed, not started
    expect(v1).not.toBe(v2);
    expect(v2.endsWith("es")).toBe(true); // deadline passed, started
    expect(await memberCampaignVersion(campaign.id, at0(member.id), afterStart)).toBe(
      `${v2}${MEMBER_EVENT.member}`,
    );
    // an event with no start moves only at its deadline, as before
    const undated = await createCampaign({ deadline });
    expect((await campaignVersion(undated.id, afterStart))!.endsWith("-e")).toBe(true);
  });
});

describe("eventPageGate (issue 31: a hidden event answers 404 before anything streams)", () => {
  it("hides unknown and malformed ids, and pending or rejected events from all but their organizer and admins", async () => {
    const organizer = await createUser();
    const admin = await createUser({ isAdmin: true });
    const stranger = await createUser();
    const approved = await createCampaign({ creatorId: organizer.id });
    const pending = await createCampaign({ creatorId: organizer.id, approvalStatus: "pending" });
    const rejected = await createCampaign({ creatorId: organizer.id, approvalStatus: "rejected" });

    expect(await eventPageGate("cnosuchcampaign000000000", null)).toBe("hidden");
    expect(await eventPageGate("x'; drop table", at0(stranger.id))).toBe("hidden");
    for (const who of [null, at0(stranger.id), at0(organizer.id), at0(admin.id)])
      expect(await eventPageGate(approved.id, who)).toBe("visible");
    for (const c of [pending, rejected]) {
      expect(await eventPageGate(c.id, null)).toBe("hidden");
      expect(await eventPageGate(c.id, at0(stranger.id))).toBe("hidden");
      expect(await eventPageGate(c.id, at0(organizer.id))).toBe("visible");
      expect(await eventPageGate(c.id, at0(admin.id))).toBe("visible");
      // a session signed out since (version moved) is a visitor, even the organizer's
      expect(await eventPageGate(c.id, { userId: organizer.id, version: 7 })).toBe("hidden");
      // no shared copy of a hidden event, for visitors or members
      expect(await campaignVersion(c.id)).toBeNull();
      expect(await memberCampaignVersion(c.id, at0(stranger.id))).toBeNull();
    }
  });
});
