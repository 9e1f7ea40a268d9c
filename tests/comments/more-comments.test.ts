import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { COMMENTS_SHOWN, getCommentsView, listMoreComments } from "@/lib/comments/queries";
import { EVENT_COMMITMENTS_LIMIT, listEventCommitments, listMoreCommitments } from "@/lib/pledges/queries";
import { createCampaign, createUser } from "@/tests/helpers/factories";

// Issue 8: an event page sends the newest comments and commitments only; "Show more" pages
// through the rest with the same privacy rules and the same anonymous numbering as the page.

async function appError(p: Promise<unknown>) {
  return p.then(
    () => null,
    (e: { code?: string; message: string }) => e,
  );
}

describe("show more comments", () => {
  it("pages through every comment once, newest first, numbered as on the page, identities hidden", async () => {
    const creator = await createUser();
    const authors = await Promise.all(
      [0, 1, 2].map((i) =>
        createUser({ name: `Hidden Author ${i}`, email: `hidden.author${i}@example.test` }),
      ),
    );
    const campaign = await createCampaign({ creatorId: creator.id });
    const n = COMMENTS_SHOWN * 2 + 5;
    await db.comment.createMany({
      data: Array.from({ length: n }, (_, i) => ({
        campaignId: campaign.id,
        authorId: authors[i % 3].id,
        text: `comment ${i}`,
        createdAt: new Date(Date.now() - (n - i) * 60_000),
      })),
    });
    const first = (await getCommentsView(campaign.id, null))!;
    expect(first.comments).toHaveLength(COMMENTS_SHOWN);
    const pages = [first.comments];
    for (let offset = COMMENTS_SHOWN; offset < n; offset += COMMENTS_SHOWN)
      pages.push((await listMoreComments(null, { campaignId: campaign.id, offset })).comments);
    const all = pages.flat();
    expect(all.map((c) => c.text)).toEqual(Array.from({ length: n }, (_, i) => `comment ${n - 1 - i}`));
    // numbered by each author's first comment: comment 0 by author 0 → #1, comment 1 → #2, comment 2 → #3
    expect(all.map((c) => c.label)).toEqual(
      Array.from({ length: n }, (_, i) => `Anonymous Commenter #${((n - 1 - i) % 3) + 1}`),
    );
    const json = JSON.stringify(all);
    for (const a of authors)
      for (const secret of [a.id, a.name!, a.email]) expect(json).not.toContain(secret);

    const asCreator = await listMoreComments(
      { id: creator.id, isAdmin: false },
      { campaignId: campaign.id, offset: COMMENTS_SHOWN },
    );
    expect(asCreator.canDelete).toBe(true);
    expect(asCreator.comments[0].label).toMatch(/^Hidden Author \d$/);
  });

  it("numbers commenters as they first arrive, stored and never renumbered; the organizer takes no number", async () => {
    // (was: numbered at read time by first comment time, ties by author id. Numbers are stored now —
    // DESIGN §1 — so a deleted comment or a back-dated row never moves anyone's number.)
    const creator = await createUser();
    const [a, b, c] = await Promise.all(
      ["cmtauthorzz1", "cmtauthoraa2", "cmtauthormm3"].map((id) =>
        db.user.create({ data: { id, email: `${id}@example.test` } }),
      ),
    );
    const campaign = await createCampaign({ creatorId: creator.id });
    const t0 = new Date("2026-01-01T10:00:00.000Z");
    const write = (authorId: string, text: string, ms: number) =>
      db.comment.create({
        data: { campaignId: campaign.id, authorId, text, createdAt: new Date(t0.getTime() + ms) },
      });
    await write(creator.id, "organizer first", -5000);
    const firstOfA = await write(a.id, "a, first", 0);
    await write(b.id, "b, second", 0);
    await write(c.id, "c, third", 1);
    await write(a.id, "a again", 2);
    const labels = async () =>
      Object.fromEntries((await getCommentsView(campaign.id, null))!.comments.map((x) => [x.text, x.label]));
    expect(await labels()).toEqual({
      "organizer first": "Event organizer",
      "a, first": "Anonymous Commenter #1",
      "b, second": "Anonymous Commenter #2",
      "c, third": "Anonymous Commenter #3",
      "a again": "Anonymous Commenter #1",
    });
    // b's only comment is deleted: c stays #3 (it used to become #2), and a newcomer is #4
    await db.comment.deleteMany({ where: { authorId: b.id } });
    await db.comment.delete({ where: { id: firstOfA.id } });
    const d = await createUser();
    await write(d.id, "d, late", 3);
    expect(await labels()).toEqual({
      "organizer first": "Event organizer",
      "c, third": "Anonymous Commenter #3",
      "a again": "Anonymous Commenter #1",
      "d, late": "Anonymous Commenter #4",
    });
  });

  it("orders first comments at the database's precision: a few microseconds decide, not the author id", async () => {
    const campaign = await createCampaign();
    const [first, second] = await Promise.all(
      ["cmtzzzearly01", "cmtaaalater02"].map((id) =>
        db.user.create({ data: { id, email: `${id}@example.test` } }),
      ),
    );
    await db.$executeRaw`INSERT INTO "Comment" (id, "campaignId", "authorId", text, "createdAt") VALUES
      ('cmtmicro00001', ${campaign.id}, ${first.id}, 'first', '2026-01-01 10:00:00.783400+00'),
      ('cmtmicro00002', ${campaign.id}, ${second.id}, 'second', '2026-01-01 10:00:00.783600+00')`;
    const labels = Object.fromEntries(
      (await getCommentsView(campaign.id, null))!.comments.map((x) => [x.text, x.label]),
    );
    expect(labels).toEqual({ first: "Anonymous Commenter #1", second: "Anonymous Commenter #2" });
  });

  it("refuses bad input and hidden events without changing anything", async () => {
    const campaign = await createCampaign({ approvalStatus: "pending" });
    expect(await appError(listMoreComments(null, { campaignId: campaign.id, offset: 0 }))).toMatchObject({
      code: "NOT_FOUND",
    });
    expect(await appError(listMoreComments(null, { campaignId: campaign.id, offset: -1 }))).toMatchObject({
      code: "BAD_REQUEST",
      message: "Invalid page.",
    });
    expect(await appError(listMoreComments(null, { campaignId: "x", offset: 0 }))).toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await appError(listMoreComments(null, null))).toMatchObject({ code: "BAD_REQUEST" });
  });
});

describe("show more commitments", () => {
  it("pages through every pledge once with the attendee numbers the first page uses", async () => {
    const campaign = await createCampaign({ goal: 500 });
    const n = EVENT_COMMITMENTS_LIMIT * 2 + 3;
    const users = await Promise.all(
      Array.from({ length: n }, (_, i) => createUser({ name: `Secret Backer ${i}` })),
    );
    await db.pledge.createMany({
      data: users.map((u, i) => ({
        campaignId: campaign.id,
        userId: u.id,
        contributor: u.name!,
        createdAt: new Date(Date.now() - (n - i) * 60_000),
      })),
    });
    const first = await listEventCommitments(campaign.id, null);
    expect(first).toMatchObject({ total: n });
    expect(first.items).toHaveLength(EVENT_COMMITMENTS_LIMIT);
    const all = [...first.items];
    while (all.length < n)
      all.push(...(await listMoreCommitments(null, { campaignId: campaign.id, offset: all.length })).items);
    expect(all.map((c) => c.label)).toEqual(
      Array.from({ length: n }, (_, i) => `Anonymous Attendee #${n - i}`),
    );
    expect(new Set(all.map((c) => c.key)).size).toBe(n);
    expect(JSON.stringify(all)).not.toMatch(/Secret Backer/);
    expect((await listMoreCommitments(null, { campaignId: campaign.id, offset: n })).items).toEqual([]);
    expect(await appError(listMoreCommitments(null, { campaignId: campaign.id, offset: 1.5 }))).toMatchObject(
      { code: "BAD_REQUEST" },
    );
  });
});
