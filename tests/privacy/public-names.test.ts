import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { signUpSchema } from "@/lib/auth/schema";
import { getCommentsView, listMoreComments } from "@/lib/comments/queries";
import { listEventCommitments, listMoreCommitments } from "@/lib/pledges/queries";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

// Issue 13 item 3 / DESIGN §1 "public names": on an event without anonymity a backer or commenter
// without a display name was listed BY EMAIL to everyone. Nobody's email is shown but to that
// person, the organizer and admins; the others see "Attendee #n" / "Commenter #n".

async function eventWithUnnamedPeople() {
  const organizer = await createUser({ name: "Org" });
  const campaign = await createCampaign({ creatorId: organizer.id, attendeesAnonymous: false });
  const named = await createUser({ name: "Named Nora", email: `nora.${Date.now()}@example.test` });
  const unnamed = await createUser({ name: null, email: `quiet.${Date.now()}@example.test` });
  await createPledge(campaign.id, named.id, { createdAt: new Date(Date.now() - 2000) });
  await createPledge(campaign.id, unnamed.id, { createdAt: new Date(Date.now() - 1000) });
  await db.comment.create({
    data: {
      campaignId: campaign.id,
      authorId: named.id,
      text: "first!",
      createdAt: new Date(Date.now() - 900),
    },
  });
  await db.comment.create({ data: { campaignId: campaign.id, authorId: unnamed.id, text: "me too" } });
  const other = await createUser({ name: "Other" });
  const admin = await createUser({ isAdmin: true });
  return { organizer, campaign, named, unnamed, other, admin };
}

const viewerOf = (u: { id: string; email: string; name: string | null; isAdmin: boolean } | null) =>
  u ? { id: u.id, email: u.email, name: u.name, isAdmin: u.isAdmin } : null;

describe("public names on an event without anonymity", () => {
  it("shows a person without a display name by number to visitors and other users, by email only to themselves, the organizer and admins", async () => {
    const f = await eventWithUnnamedPeople();
    for (const who of [null, f.other, f.named]) {
      const list = await listEventCommitments(f.campaign.id, viewerOf(who));
      const comments = (await getCommentsView(f.campaign.id, viewerOf(who)))!;
      const more = await listMoreCommitments(viewerOf(who), { campaignId: f.campaign.id, offset: 0 });
      const moreComments = await listMoreComments(viewerOf(who), { campaignId: f.campaign.id, offset: 0 });
      expect(list.items.map((i) => i.label)).toEqual(["Attendee #2", "Named Nora"]);
      expect(comments.comments.map((c) => c.label)).toEqual(["Commenter #2", "Named Nora"]);
      const json = JSON.stringify([list, comments, more, moreComments]);
      expect(json).not.toContain(f.unnamed.email);
      expect(json).not.toContain(f.unnamed.id);
      if (who !== f.named) expect(json).not.toContain(f.named.email);
    }
    for (const who of [f.unnamed, f.organizer, f.admin]) {
      const list = await listEventCommitments(f.campaign.id, viewerOf(who));
      expect(list.items[0].label).toBe(f.unnamed.email);
    }
  });

  it("keeps a person's number when others commit after them", async () => {
    const f = await eventWithUnnamedPeople();
    await createPledge(f.campaign.id, (await createUser({ name: null })).id);
    const list = await listEventCommitments(f.campaign.id, null);
    expect(list.items.map((i) => i.label)).toEqual(["Attendee #3", "Attendee #2", "Named Nora"]);
  });
});

describe("display names may not be an email or pose as the app's labels", () => {
  it.each([
    ["someone@example.com", "Display name cannot be an email address"],
    [
      "Event organizer",
      'Display name cannot be "Event organizer", "Anonymous …", or an attendee or commenter number',
    ],
    [
      "event Organizer",
      'Display name cannot be "Event organizer", "Anonymous …", or an attendee or commenter number',
    ],
    [
      "Anonymous Attendee #1",
      'Display name cannot be "Event organizer", "Anonymous …", or an attendee or commenter number',
    ],
    [
      "Attendee #4",
      'Display name cannot be "Event organizer", "Anonymous …", or an attendee or commenter number',
    ],
    [
      "Commenter 2",
      'Display name cannot be "Event organizer", "Anonymous …", or an attendee or commenter number',
    ],
  ])("refuses %j with a clear message", (name, message) => {
    const parsed = signUpSchema.safeParse({ email: "a@example.test", password: "violet-harbour-42", name });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0].message).toBe(message);
  });

  it.each(["Anna", "Anonymously Yours Ltd", "Attendee Relations Team", "Jo @ the bakery"])(
    "accepts %j",
    (name) => {
      expect(
        signUpSchema.safeParse({ email: "a@example.test", password: "violet-harbour-42", name }).success,
      ).toBe(true);
    },
  );

  it("the public_names migration clears such stored names and the emails stored as contributor", async () => {
    const bad = await Promise.all(
      ["x@y.test", "Event organizer", "Anonymous Commenter #2", "attendee #7"].map((name) =>
        createUser({ name }),
      ),
    );
    const good = await createUser({ name: "Real Name" });
    const unnamed = await createUser({ name: null });
    const campaign = await createCampaign();
    const pledge = await createPledge(campaign.id, unnamed.id); // the factory stores the email, as commits used to
    expect(pledge.contributor).toBe(unnamed.email);
    const dir = fs
      .readdirSync(path.join(process.cwd(), "prisma/migrations"))
      .find((d) => d.endsWith("_public_names"))!;
    const sql = fs.readFileSync(path.join(process.cwd(), "prisma/migrations", dir, "migration.sql"), "utf8");
    for (const statement of sql
      .replace(/^--.*$/gm, "")
      .split(";")
      .map((s) => s.trim())
      .filter(Boolean))
      await db.$executeRawUnsafe(statement);
    const names = await db.user.findMany({
      where: { id: { in: [...bad, good].map((u) => u.id) } },
      select: { id: true, name: true },
    });
    expect(names.filter((u) => u.name !== null).map((u) => u.name)).toEqual(["Real Name"]);
    expect((await db.pledge.findUniqueOrThrow({ where: { id: pledge.id } })).contributor).toBe(
      "Anonymous Backer",
    );
  });
});
