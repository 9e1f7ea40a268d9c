import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createComment, deleteComment } from "@/lib/comments/service";
import { getCommentsView } from "@/lib/comments/queries";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

const asViewer = (u: { id: string; isAdmin: boolean }) => ({ id: u.id, isAdmin: u.isAdmin });

async function expectAppError(p: Promise<unknown>, code: string, message?: RegExp | string) {
  const err = await p.then(
    () => null,
    (e: unknown) => e as { code?: string; message: string },
  );
  expect(err, "expected an AppError").not.toBeNull();
  expect(err!.code).toBe(code);
  if (message) expect(err!.message).toMatch(message);
}

describe("createComment", () => {
  it("stores the trimmed text for a signed-in user on an approved event", async () => {
    const user = await createUser();
    const campaign = await createCampaign();
    const { id } = await createComment(asViewer(user), {
      campaignId: campaign.id,
      text: "  Count me in!\n ",
    });
    const row = await db.comment.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({ text: "Count me in!", authorId: user.id, campaignId: campaign.id });
  });

  it("refuses signed-out users", async () => {
    const campaign = await createCampaign();
    await expectAppError(createComment(null, { campaignId: campaign.id, text: "hello" }), "UNAUTHENTICATED");
    expect(await db.comment.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  it.each([
    ["blank", "   \n  ", "Please write a comment first."],
    ["501 characters", "x".repeat(501), "Comments can be at most 500 characters."],
    ["not a string", 42, "Please write a comment first."],
  ])("refuses a %s comment with a clear message", async (_, text, message) => {
    const user = await createUser();
    const campaign = await createCampaign();
    await expectAppError(
      createComment(asViewer(user), { campaignId: campaign.id, text }),
      "BAD_REQUEST",
      message,
    );
    expect(await db.comment.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  it("accepts exactly 500 characters", async () => {
    const user = await createUser();
    const campaign = await createCampaign();
    await createComment(asViewer(user), { campaignId: campaign.id, text: "y".repeat(500) });
    expect(await db.comment.count({ where: { campaignId: campaign.id } })).toBe(1);
  });

  it.each(["pending", "rejected"] as const)(
    "refuses non-admins on a %s event, creator included; admins may comment",
    async (approvalStatus) => {
      const creator = await createUser();
      const other = await createUser();
      const admin = await createUser({ isAdmin: true });
      const campaign = await createCampaign({ approvalStatus, creatorId: creator.id });
      await expectAppError(
        createComment(asViewer(other), { campaignId: campaign.id, text: "hi" }),
        "NOT_FOUND",
      );
      await expectAppError(
        createComment(asViewer(creator), { campaignId: campaign.id, text: "hi" }),
        "FORBIDDEN",
      );
      await createComment(asViewer(admin), { campaignId: campaign.id, text: "admin note" });
      expect(
        await db.comment.findMany({ where: { campaignId: campaign.id }, select: { authorId: true } }),
      ).toEqual([{ authorId: admin.id }]);
    },
  );

  it("answers NOT_FOUND for unknown or malformed event ids", async () => {
    const user = await createUser();
    await expectAppError(
      createComment(asViewer(user), { campaignId: "doesnotexist123", text: "hi" }),
      "NOT_FOUND",
    );
    await expectAppError(
      createComment(asViewer(user), { campaignId: "../../etc", text: "hi" }),
      "BAD_REQUEST",
    );
  });

  it("limits each user to 10 comments a minute", async () => {
    const user = await createUser();
    const other = await createUser();
    const campaign = await createCampaign();
    for (let i = 0; i < 10; i++)
      await createComment(asViewer(user), { campaignId: campaign.id, text: `comment ${i}` });
    await expectAppError(
      createComment(asViewer(user), { campaignId: campaign.id, text: "one too many" }),
      "RATE_LIMITED",
      /commenting too quickly.*wait \d+ seconds?/,
    );
    await createComment(asViewer(other), { campaignId: campaign.id, text: "someone else is fine" });
    expect(await db.comment.count({ where: { campaignId: campaign.id } })).toBe(11);
  });
});

describe("deleteComment", () => {
  async function setup() {
    const creator = await createUser();
    const author = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id });
    const { id } = await createComment(asViewer(author), { campaignId: campaign.id, text: "to be removed" });
    return { creator, author, campaign, id };
  }

  it("lets the organizer delete a comment", async () => {
    const { creator, id, campaign } = await setup();
    expect(await deleteComment(asViewer(creator), { commentId: id })).toEqual({ campaignId: campaign.id });
    expect(await db.comment.count({ where: { id } })).toBe(0);
  });

  it("lets an admin delete a comment", async () => {
    const { id } = await setup();
    const admin = await createUser({ isAdmin: true });
    await deleteComment(asViewer(admin), { commentId: id });
    expect(await db.comment.count({ where: { id } })).toBe(0);
  });

  it("refuses the author, other users and visitors", async () => {
    const { author, id } = await setup();
    const other = await createUser();
    await expectAppError(deleteComment(asViewer(author), { commentId: id }), "FORBIDDEN");
    await expectAppError(deleteComment(asViewer(other), { commentId: id }), "FORBIDDEN");
    await expectAppError(deleteComment(null, { commentId: id }), "UNAUTHENTICATED");
    await expectAppError(deleteComment(asViewer(other), { commentId: 7 }), "BAD_REQUEST");
    await expectAppError(deleteComment(asViewer(other), { commentId: "nosuchcomment1" }), "NOT_FOUND");
    expect(await db.comment.count({ where: { id } })).toBe(1);
  });
});

describe("getCommentsView", () => {
  it("lists newest first and hides anonymous commenters from other viewers, numbered by first comment", async () => {
    const creator = await createUser();
    const ann = await createUser({ name: "Ann Hidden", email: "ann.hidden@example.test" });
    const bob = await createUser({ name: null, email: "bob.hidden@example.test" });
    const campaign = await createCampaign({ creatorId: creator.id });
    await createPledge(campaign.id, ann.id);
    const at = (m: number) => new Date(Date.now() - (60 - m) * 60_000);
    await db.comment.createMany({
      data: [
        {
          id: "cmtaaaaaaaaa1",
          campaignId: campaign.id,
          authorId: ann.id,
          text: "first by ann",
          createdAt: at(1),
        },
        {
          id: "cmtaaaaaaaaa2",
          campaignId: campaign.id,
          authorId: bob.id,
          text: "first by bob",
          createdAt: at(2),
        },
        {
          id: "cmtaaaaaaaaa3",
          campaignId: campaign.id,
          authorId: ann.id,
          text: "second by ann",
          createdAt: at(3),
        },
      ],
    });

    const visitor = (await getCommentsView(campaign.id, null))!;
    expect(visitor.comments.map((c) => [c.text, c.label])).toEqual([
      ["second by ann", "Anonymous Commenter #1"],
      ["first by bob", "Anonymous Commenter #2"],
      ["first by ann", "Anonymous Commenter #1"],
    ]);
    expect(visitor).toMatchObject({ total: 3, canPost: false, canDelete: false, signedIn: false });
    const json = JSON.stringify(visitor);
    for (const secret of [ann.id, bob.id, "Ann Hidden", "ann.hidden", "bob.hidden"])
      expect(json).not.toContain(secret);

    const asAnn = (await getCommentsView(campaign.id, asViewer(ann)))!;
    expect(asAnn.comments.map((c) => c.label)).toEqual([
      "Ann Hidden",
      "Anonymous Commenter #2",
      "Ann Hidden",
    ]);
    expect(asAnn).toMatchObject({ canPost: true, canDelete: false });
    expect(JSON.stringify(asAnn)).not.toContain("bob.hidden");

    const asCreator = (await getCommentsView(campaign.id, asViewer(creator)))!;
    expect(asCreator.comments.map((c) => c.label)).toEqual([
      "Ann Hidden",
      "bob.hidden@example.test",
      "Ann Hidden",
    ]);
    expect(asCreator.canDelete).toBe(true);
  });

  it("shows the organizer's comments as 'Event organizer' to those who may not see the organizer's email", async () => {
    const creator = await createUser({ name: null, email: "org.private@example.test" });
    const backer = await createUser();
    const stranger = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id, attendeesAnonymous: false });
    await createPledge(campaign.id, backer.id);
    await createComment(asViewer(creator), { campaignId: campaign.id, text: "Welcome, everyone" });

    for (const viewer of [null, asViewer(stranger)]) {
      const view = (await getCommentsView(campaign.id, viewer))!;
      expect(view.comments[0]).toMatchObject({ label: "Event organizer", isOrganizer: true, email: null });
      expect(JSON.stringify(view)).not.toContain("org.private");
    }
    const asBacker = (await getCommentsView(campaign.id, asViewer(backer)))!;
    expect(asBacker.comments[0]).toMatchObject({ label: "org.private@example.test", isOrganizer: true });
  });

  it("does not exist for visitors on a pending event; the creator and admins see it", async () => {
    const creator = await createUser();
    const admin = await createUser({ isAdmin: true });
    const campaign = await createCampaign({ creatorId: creator.id, approvalStatus: "pending" });
    expect(await getCommentsView(campaign.id, null)).toBeNull();
    expect(await getCommentsView(campaign.id, asViewer(await createUser()))).toBeNull();
    expect(await getCommentsView(campaign.id, asViewer(creator))).toMatchObject({
      canPost: false,
      canDelete: true,
    });
    expect(await getCommentsView(campaign.id, asViewer(admin))).toMatchObject({
      canPost: true,
      canDelete: true,
    });
  });
});

describe("anonymity is permanent after creation", () => {
  it("the database refuses any change to attendeesAnonymous or identityRevelationType", async () => {
    const campaign = await createCampaign({ attendeesAnonymous: true, identityRevelationType: "never" });
    await expect(
      db.campaign.update({ where: { id: campaign.id }, data: { attendeesAnonymous: false } }),
    ).rejects.toThrow(/anonymity setting/);
    await expect(
      db.campaign.update({ where: { id: campaign.id }, data: { identityRevelationType: "immediate" } }),
    ).rejects.toThrow(/anonymity setting/);
    await expect(
      db.$executeRawUnsafe(
        `UPDATE "Campaign" SET "identityRevelationType" = 'onStart' WHERE id = $1`,
        campaign.id,
      ),
    ).rejects.toThrow(/anonymity setting/);
    // Other updates, and writing the same value, still work.
    await db.campaign.update({
      where: { id: campaign.id },
      data: { title: "A renamed event", attendeesAnonymous: true },
    });
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      title: "A renamed event",
      attendeesAnonymous: true,
      identityRevelationType: "never",
    });
  });
});
