import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { deleteTestCampaigns, setApprovalStatus } from "@/lib/campaigns/service";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

const asViewer = (u: { id: string; email: string; name: string | null; isAdmin: boolean }) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  isAdmin: u.isAdmin,
});

describe("setApprovalStatus", () => {
  it("lets an admin approve, reject and re-approve, recording who and when", async () => {
    const admin = asViewer(await createUser({ isAdmin: true }));
    const c = await createCampaign({ approvalStatus: "pending" });

    await setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "approved" });
    await setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "rejected" });
    const after = await setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "approved" });

    expect(after.approvalStatus).toBe("approved");
    const row = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect(row.approvalUpdatedById).toBe(admin.id);
    expect(row.approvalUpdatedAt).toBeInstanceOf(Date);
    const log = await db.moderationLog.findMany({
      where: { campaignId: c.id },
      orderBy: { createdAt: "asc" },
    });
    expect(log.map((l) => [l.fromStatus, l.toStatus, l.actorId])).toEqual([
      ["pending", "approved", admin.id],
      ["approved", "rejected", admin.id],
      ["rejected", "approved", admin.id],
    ]);
  });

  it("refuses a signed-in non-admin (even the creator) and a visitor, changing nothing", async () => {
    const creator = await createUser();
    const c = await createCampaign({ approvalStatus: "pending", creatorId: creator.id });
    await expect(
      setApprovalStatus(asViewer(creator), { campaignId: c.id, approvalStatus: "approved" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    const other = asViewer(await createUser());
    await expect(
      setApprovalStatus(other, { campaignId: c.id, approvalStatus: "approved" }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      setApprovalStatus(null, { campaignId: c.id, approvalStatus: "approved" }),
    ).rejects.toMatchObject({ code: "UNAUTHENTICATED" });

    const row = await db.campaign.findUniqueOrThrow({ where: { id: c.id } });
    expect(row.approvalStatus).toBe("pending");
    expect(row.approvalUpdatedById).toBeNull();
    expect(await db.moderationLog.count({ where: { campaignId: c.id } })).toBe(0);
  });

  it("rejects bad input and unknown campaigns with a 4xx error", async () => {
    const admin = asViewer(await createUser({ isAdmin: true }));
    const c = await createCampaign({ approvalStatus: "pending" });
    await expect(
      setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "pending" as never }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(
      setApprovalStatus(admin, { campaignId: "nope0000000000", approvalStatus: "approved" }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).approvalStatus).toBe("pending");
  });
});

describe("deleteTestCampaigns", () => {
  it("deletes every test event with its pledges and comments, and nothing else", async () => {
    const admin = asViewer(await createUser({ isAdmin: true }));
    const t1 = await createCampaign({ isTest: true });
    const t2 = await createCampaign({ isTest: true, approvalStatus: "pending" });
    const real = await createCampaign({ isTest: false });
    const backer = await createUser();
    await createPledge(t1.id, backer.id);
    await createPledge(real.id, backer.id);
    await db.comment.create({ data: { campaignId: t1.id, authorId: backer.id, text: "See you there" } });
    await db.comment.create({ data: { campaignId: real.id, authorId: backer.id, text: "Keep me" } });

    expect(await deleteTestCampaigns(admin)).toBe(2);

    expect(await db.campaign.count({ where: { id: { in: [t1.id, t2.id] } } })).toBe(0);
    expect(await db.pledge.count({ where: { campaignId: t1.id } })).toBe(0);
    expect(await db.comment.count({ where: { campaignId: t1.id } })).toBe(0);
    expect(await db.campaign.count({ where: { id: real.id } })).toBe(1);
    expect(await db.pledge.count({ where: { campaignId: real.id } })).toBe(1);
    expect(await db.comment.count({ where: { campaignId: real.id } })).toBe(1);

    expect(await deleteTestCampaigns(admin)).toBe(0);
  });

  it("refuses non-admins and deletes nothing", async () => {
    const t = await createCampaign({ isTest: true });
    await expect(deleteTestCampaigns(asViewer(await createUser()))).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(deleteTestCampaigns(null)).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    expect(await db.campaign.count({ where: { id: t.id } })).toBe(1);
  });
});
