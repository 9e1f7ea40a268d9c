import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { queueDerivedEmails } from "@/lib/derived-emails";
import { queueCommitEmail } from "@/lib/campaigns/notifications";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

const count = (prefix: string) => db.emailOutbox.count({ where: { dedupeKey: { startsWith: prefix } } });

describe("emails derived from committed causes", () => {
  it("each cause yields exactly one email, whether the hook, the sweeper, or both (and repeatedly) queue it", async () => {
    const creator = await createUser();
    const admin = await createUser({ isAdmin: true });
    const campaign = await createCampaign({ creatorId: creator.id, goal: 2, ticketPriceCents: 500 });
    const [a, b] = [await createUser(), await createUser()];
    const pa = await createPledge(campaign.id, a.id, { paymentMethodId: "pm_a", amountCents: 500 });
    const pb = await createPledge(campaign.id, b.id, { paymentMethodId: "pm_b", amountCents: 500 });
    await db.$transaction((tx) => queueCommitEmail(tx, pa.id)); // this one's service used the hook

    // The threshold is met and both are charged; an admin approved the event earlier.
    await db.campaign.update({
      where: { id: campaign.id },
      data: { status: "charged", committedCount: 2, chargedAt: new Date() },
    });
    for (const p of [pa, pb]) {
      await db.pledge.update({
        where: { id: p.id },
        data: {
          charged: true,
          verified: true,
          chargedAt: new Date(),
          chargeType: "paid",
          chargeStatus: "succeeded",
          paymentIntentId: `pi_${p.id}`,
        },
      });
    }
    const log = await db.moderationLog.create({
      data: { campaignId: campaign.id, actorId: admin.id, fromStatus: "pending", toStatus: "approved" },
    });

    const runs = await Promise.all([queueDerivedEmails(), queueDerivedEmails()]);
    expect(runs[0] + runs[1]).toBe(1 + 2 + 1); // pb's commit email, two confirmations, one moderation email
    expect(await queueDerivedEmails()).toBe(0);

    expect(await count(`commit:${pa.id}:`)).toBe(1);
    expect(await count(`commit:${pb.id}:`)).toBe(1);
    const confirmed = await db.emailOutbox.findMany({
      where: { dedupeKey: { startsWith: `confirmed:${campaign.id}:` } },
    });
    expect(confirmed.map((e) => e.toEmail).sort()).toEqual([a.email, b.email].sort());
    expect(
      confirmed.every(
        (e) =>
          e.subject === `Event Confirmed! "${campaign.title}" is happening` &&
          e.text.includes("You were charged $5.00."),
      ),
    ).toBe(true);
    expect(await count(`moderation:${log.id}:${creator.id}`)).toBe(1);
  });

  it("does not confirm pledges that were not charged, nor reach back beyond the window", async () => {
    const campaign = await createCampaign({ status: "charging", goal: 1 });
    const failed = await createPledge(campaign.id, undefined, { paymentMethodId: "pm", amountCents: 100 });
    await db.pledge.update({
      where: { id: failed.id },
      data: { chargeStatus: "failed", chargeFailureCode: "card_declined" },
    });
    const old = await createPledge((await createCampaign()).id, undefined, {
      createdAt: new Date(Date.now() - 3 * 24 * 3600_000),
    });
    await queueDerivedEmails();
    expect(await count(`confirmed:${campaign.id}:`)).toBe(0);
    expect(await count(`commit:${old.id}:`)).toBe(0);
    expect(await count(`commit:${failed.id}:`)).toBe(1);
  });
});
