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
  it("a rejection needs a reason (at most 500 characters), kept in the log and emailed to the organizer, escaped", async () => {
    const admin = asViewer(await createUser({ isAdmin: true }));
    const c = await createCampaign({ approvalStatus: "pending" });
    for (const reason of [undefined, "", "   "])
      await expect(
        setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "rejected", reason }),
      ).rejects.toThrow("Please give a reason for rejecting this event.");
    await expect(
      setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "rejected", reason: "x".repeat(501) }),
    ).rejects.toThrow("Please keep the reason under 500 characters.");
    expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).approvalStatus).toBe("pending");
    expect(await db.moderationLog.count({ where: { campaignId: c.id } })).toBe(0);

    const reason = 'Looks like spam: <a href="https://evil.test">win</a>';
    await setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "rejected", reason: `  ${reason} ` });
    const log = await db.moderationLog.findFirstOrThrow({ where: { campaignId: c.id } });
    expect(log.reason).toBe(reason);
    const email = await db.emailOutbox.findFirstOrThrow({
      where: { dedupeKey: `moderation:${log.id}:${c.creatorId}` },
    });
    expect(email.text).toContain(`The reason given: ${reason}`);
    expect(email.html).toContain(
      "The reason given: Looks like spam: &lt;a href=&quot;https://evil.test&quot;&gt;win&lt;/a&gt;",
    );
    expect(email.html).not.toContain('<a href="https://evil.test"');
  });

  it("an event that has tipped cannot be rejected (it is cancelled with refunds instead)", async () => {
    const admin = asViewer(await createUser({ isAdmin: true }));
    for (const status of ["funded", "charging", "charged"] as const) {
      const c = await createCampaign({ approvalStatus: "approved", status });
      await expect(
        setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "rejected", reason: "Too late" }),
      ).rejects.toMatchObject({
        code: "CONFLICT",
        message: expect.stringContaining("cannot be rejected"),
      });
      expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).approvalStatus).toBe("approved");
      expect(await db.moderationLog.count({ where: { campaignId: c.id } })).toBe(0);
    }
    // collecting, expired and cancelled events can still be rejected
    for (const status of ["pending", "expired", "cancelled"] as const) {
      const c = await createCampaign({ approvalStatus: "approved", status });
      await setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "rejected", reason: "Spam" });
      expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).approvalStatus).toBe("rejected");
    }
  });

  it("lets an admin approve, reject and re-approve, recording who and when", async () => {
    const admin = asViewer(await createUser({ isAdmin: true }));
    const c = await createCampaign({ approvalStatus: "pending" });

    await setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "approved" });
    await setApprovalStatus(admin, { campaignId: c.id, approvalStatus: "rejected", reason: "Duplicate" });
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

    expect(await deleteTestCampaigns(admin)).toEqual({ deleted: 2, kept: [] });

    expect(await db.campaign.count({ where: { id: { in: [t1.id, t2.id] } } })).toBe(0);
    expect(await db.pledge.count({ where: { campaignId: t1.id } })).toBe(0);
    expect(await db.comment.count({ where: { campaignId: t1.id } })).toBe(0);
    expect(await db.campaign.count({ where: { id: real.id } })).toBe(1);
    expect(await db.pledge.count({ where: { campaignId: real.id } })).toBe(1);
    expect(await db.comment.count({ where: { campaignId: real.id } })).toBe(1);

    expect(await deleteTestCampaigns(admin)).toEqual({ deleted: 0, kept: [] });
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
