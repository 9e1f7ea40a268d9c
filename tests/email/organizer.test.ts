import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { queueDerivedEmails } from "@/lib/derived-emails";
import { commitToCampaign } from "@/lib/pledges/service";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

// issue 19: the organizer hears when the event tips and when charging is done, once each.
const organizerEmails = (campaignId: string) =>
  db.emailOutbox.findMany({
    where: {
      OR: [
        { dedupeKey: { startsWith: `tipped:${campaignId}:` } },
        { dedupeKey: { startsWith: `charged-summary:${campaignId}:` } },
      ],
    },
    orderBy: { createdAt: "asc" },
  });

async function settle(pledgeId: string, chargeStatus: "succeeded" | "failed") {
  await db.pledge.update({
    where: { id: pledgeId },
    data: { chargeStatus, charged: chargeStatus === "succeeded", chargedAt: new Date(), chargeType: "paid" },
  });
}

describe("organizer emails: reached the goal, charging done", () => {
  it("a paid event: one tip email, then one summary with what was collected and what failed", async () => {
    const organizer = await createUser({ email: "org.paid@example.test" });
    const c = await createCampaign({ creatorId: organizer.id, goal: 3, ticketPriceCents: 900 });
    const pledges = [];
    for (let i = 0; i < 3; i++)
      pledges.push(await createPledge(c.id, undefined, { paymentMethodId: "pm_x", amountCents: 900 }));
    await db.campaign.update({
      where: { id: c.id },
      data: { status: "funded", fundedAt: new Date(), committedCount: 3 },
    });

    await queueDerivedEmails();
    await queueDerivedEmails(); // a second run (another instance) adds nothing
    let emails = await organizerEmails(c.id);
    expect(emails).toHaveLength(1);
    expect(emails[0]).toMatchObject({ toEmail: organizer.email, subject: `"${c.title}" reached its goal` });
    expect(emails[0].text).toContain("3 people have committed, against a goal of 3");
    expect(emails[0].text).toContain("Every saved card is being charged now.");
    expect(emails[0].html).toContain("Your event reached its goal!");

    await settle(pledges[0].id, "succeeded");
    await settle(pledges[1].id, "succeeded");
    await settle(pledges[2].id, "failed");
    await db.campaign.update({
      where: { id: c.id },
      data: { status: "charged", chargedAt: new Date(), chargeType: "paid" },
    });
    await queueDerivedEmails();
    await queueDerivedEmails();
    emails = await organizerEmails(c.id);
    expect(emails).toHaveLength(2);
    expect(emails[1].subject).toBe(`Charging done for "${c.title}": $18.00 collected`);
    expect(emails[1].text).toContain(`2 payments went through for "${c.title}": $18.00 collected.`);
    expect(emails[1].text).toContain(
      "1 payment failed. That backer has been emailed a link to update their card and pay",
    );
    expect(emails[1].text).toContain(`/campaign/${c.id}/manage`);
  });

  it("a free event that tips through commits: the tip email says it is free, and no charging summary", async () => {
    const organizer = await createUser({ email: "org.free@example.test" });
    const c = await createCampaign({ creatorId: organizer.id, goal: 2, ticketPriceCents: 0 });
    for (let i = 0; i < 2; i++) {
      const u = await createUser();
      await commitToCampaign(
        { id: u.id, email: u.email, name: u.name, isAdmin: false },
        { campaignId: c.id },
      );
    }
    await queueDerivedEmails();
    const emails = await organizerEmails(c.id);
    expect(emails.map((e) => e.dedupeKey.split(":")[0])).toEqual(["tipped"]);
    expect(emails[0].text).toContain("It is free, so there is nothing to charge");
  });

  it("a crowdfund speaks dollars", async () => {
    const organizer = await createUser();
    const c = await createCampaign({ creatorId: organizer.id, goal: 1000, ticketPriceCents: 0 });
    await db.campaign.update({
      where: { id: c.id },
      data: {
        pactType: "crowdfund",
        raisedCents: 124_000,
        committedCount: 9,
        status: "funded",
        fundedAt: new Date(),
      },
    });
    await queueDerivedEmails();
    const [email] = await organizerEmails(c.id);
    expect(email.text).toContain("$1,240.00 is pledged, against a goal of $1,000.00");
    expect(email.text).not.toContain("9 people");
  });

  it("an event that tipped and was then cancelled gets no tip email", async () => {
    const c = await createCampaign({ goal: 1 });
    await db.campaign.update({ where: { id: c.id }, data: { status: "cancelled", fundedAt: new Date() } });
    await queueDerivedEmails();
    expect(await organizerEmails(c.id)).toEqual([]);
  });
});
