import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getCampaignDetail } from "@/lib/campaigns/queries";
import { listEventCommitments } from "@/lib/pledges/queries";
import { getCommentsView } from "@/lib/comments/queries";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

// Issue 35 item 2: the event page's heavy reads are memoised by the event's version (its
// "updatedAt", lib/campaigns/version-memo). A change is a new version, seen by the next read; the
// memo holds raw rows, and each viewer still gets only what lib/privacy lets them see.

describe("event page reads keyed by the event's version", () => {
  it("a commit, a comment and a deletion are seen by the next read", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id });
    await createPledge(campaign.id);
    expect((await listEventCommitments(campaign.id, null)).total).toBe(1);
    expect((await listEventCommitments(campaign.id, null)).total).toBe(1);
    await createPledge(campaign.id);
    expect((await listEventCommitments(campaign.id, null)).total).toBe(2);

    const author = await createUser();
    expect((await getCommentsView(campaign.id, null))!.total).toBe(0);
    const c = await db.comment.create({
      data: { campaignId: campaign.id, authorId: author.id, text: "hello" },
    });
    expect((await getCommentsView(campaign.id, null))!.total).toBe(1);
    await db.comment.delete({ where: { id: c.id } });
    expect((await getCommentsView(campaign.id, null))!.total).toBe(0);
  });

  it("two changes in a row always give two versions (strictly increasing updatedAt)", async () => {
    const campaign = await createCampaign({ creatorId: (await createUser()).id });
    const seen = new Set<number>();
    for (let i = 0; i < 5; i++) {
      await db.$executeRaw`UPDATE "Campaign" SET title = title WHERE id = ${campaign.id}`;
      seen.add((await getCampaignDetail(campaign.id))!.updatedAt.getTime());
    }
    expect(seen.size).toBe(5);
  });

  it("the organizer's names never reach a visitor through the shared rows", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id });
    const backer = await createUser({ name: "Secret Backer", email: "secret.backer@example.test" });
    await createPledge(campaign.id, backer.id);
    const organizer = { id: creator.id, isAdmin: false, email: creator.email, name: creator.name };
    const asOrganizer = await listEventCommitments(campaign.id, organizer as never);
    expect(JSON.stringify(asOrganizer.items)).toContain("Secret Backer");
    const asVisitor = await listEventCommitments(campaign.id, null);
    const json = JSON.stringify(asVisitor.items);
    for (const secret of ["Secret Backer", backer.email, backer.id]) expect(json).not.toContain(secret);
  });
});
