import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { setApprovalStatus } from "@/lib/campaigns/service";
import { createCampaign, createUser } from "@/tests/helpers/factories";

const viewerOf = (u: { id: string; email: string; name: string | null; isAdmin: boolean }) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  isAdmin: u.isAdmin,
});

// DESIGN §1: an email is written to the outbox in the same transaction as its cause. These read
// the outbox right after the service returns — no job has run (JOBS_ENABLED=false in tests).
describe("emails are queued inside the transaction of their cause", () => {
  it("a commit queues the backer's confirmation; the commit that tips a free event queues every Event Confirmed!", async () => {
    const campaign = await createCampaign({ goal: 2, ticketPriceCents: 0 });
    const a = await createUser();
    const b = await createUser();
    await commitToCampaign(viewerOf(a), { campaignId: campaign.id });
    const afterFirst = await db.emailOutbox.findMany({ where: { toEmail: { in: [a.email, b.email] } } });
    expect(afterFirst.map((e) => e.toEmail)).toEqual([a.email]);

    const result = await commitToCampaign(viewerOf(b), { campaignId: campaign.id });
    expect(result.crossed).toBe(true);
    const rows = await db.emailOutbox.findMany({
      where: { toEmail: { in: [a.email, b.email] } },
      orderBy: { createdAt: "asc" },
    });
    const confirmed = rows.filter((r) => r.subject.includes("Event Confirmed!"));
    expect(confirmed.map((r) => r.toEmail).sort()).toEqual([a.email, b.email].sort());
    expect(rows).toHaveLength(4); // two commit confirmations + two Event Confirmed!
  });

  it("an approval queues the organizer's email with the moderation", async () => {
    const admin = await createUser({ isAdmin: true });
    const organizer = await createUser();
    const campaign = await createCampaign({ creatorId: organizer.id, approvalStatus: "pending" });
    await setApprovalStatus(viewerOf(admin), { campaignId: campaign.id, approvalStatus: "approved" });
    const rows = await db.emailOutbox.findMany({ where: { toEmail: organizer.email } });
    expect(rows).toHaveLength(1);
  });
});
