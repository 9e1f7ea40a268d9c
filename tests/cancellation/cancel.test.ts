import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { cancelCampaign } from "@/lib/cancellation/service";
import { refundOwedPledges } from "@/lib/ledger/refunds";
import type { PaymentGateway } from "@/lib/payments/types";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

const v = (u: { id: string; isAdmin: boolean }) => ({ id: u.id, isAdmin: u.isAdmin });

/** A gateway that behaves like Stripe for refunds: one refund per idempotency key (pledge), every call counted. */
function fakeGateway(failFor = new Set<string>()) {
  const calls: string[] = [];
  const refunds = new Map<string, string>();
  const gateway = {
    mode: "demo",
    async refund({ pledgeId }: { pledgeId: string; paymentIntentId: string }) {
      calls.push(pledgeId);
      if (failFor.has(pledgeId)) throw new Error("provider unavailable");
      if (!refunds.has(pledgeId)) refunds.set(pledgeId, `re_${pledgeId}`);
      return { refundId: refunds.get(pledgeId)! };
    },
  } as unknown as PaymentGateway;
  return { gateway, calls, refunds };
}

async function chargedEvent() {
  const creator = await createUser();
  const campaign = await createCampaign({
    creatorId: creator.id,
    ticketPriceCents: 2500,
    goal: 2,
    status: "charged",
  });
  const backers = [await createUser(), await createUser()];
  const pledges = [];
  for (const b of backers) {
    const p = await createPledge(campaign.id, b.id, { paymentMethodId: `pm_${b.id}`, amountCents: 2500 });
    pledges.push(
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
      }),
    );
  }
  return { creator, campaign, backers, pledges };
}

describe("cancelling an event", () => {
  it("before confirmation: nobody is charged or refunded, every committer is told once", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id, ticketPriceCents: 1000 });
    const backer = await createUser();
    await createPledge(campaign.id, backer.id, { paymentMethodId: "pm_saved", amountCents: 1000 });
    const { gateway, calls } = fakeGateway();
    const r = await cancelCampaign(v(creator), { campaignId: campaign.id }, { gateway });
    expect(r).toMatchObject({ refunded: 0, emailed: 1 });
    expect(calls).toEqual([]);
    expect(await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).toMatchObject({
      status: "cancelled",
    });
    const [email] = await db.emailOutbox.findMany({
      where: { dedupeKey: `cancelled:${campaign.id}:${backer.id}` },
    });
    expect(email.subject).toBe(`"${campaign.title}" was cancelled`);
    expect(email.text).toContain("Nobody was charged.");
    await expect(cancelCampaign(v(creator), { campaignId: campaign.id }, { gateway })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This event is already cancelled.",
    });
  });

  it("after confirmation: refunds every charge exactly once through the gateway, also when cancel and the sweeper race", async () => {
    const { creator, campaign, backers, pledges } = await chargedEvent();
    const { gateway, calls, refunds } = fakeGateway();
    const [r] = await Promise.all([
      cancelCampaign(v(creator), { campaignId: campaign.id }, { gateway }),
      refundOwedPledges(undefined, gateway),
      refundOwedPledges(campaign.id, gateway),
    ]);
    expect(r.emailed).toBe(2);
    const after = await db.pledge.findMany({ where: { campaignId: campaign.id }, orderBy: { id: "asc" } });
    expect(after.map((p) => [p.chargeStatus, p.refundId])).toEqual(
      pledges.map((p) => ["refunded", `re_${p.id}`]).sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
    );
    expect(refunds.size).toBe(2);
    const callsSoFar = calls.length;
    // Retried jobs find nothing left: no new refund request at all.
    expect(await refundOwedPledges(undefined, gateway)).toBe(0);
    expect(calls.length).toBe(callsSoFar);

    const emails = await db.emailOutbox.findMany({
      where: { dedupeKey: { startsWith: `cancelled:${campaign.id}:` } },
    });
    expect(emails.map((e) => e.toEmail).sort()).toEqual(backers.map((b) => b.email).sort());
    expect(
      emails.every((e) => e.text.includes("Your payment of $25.00 is being refunded to your card.")),
    ).toBe(true);
  });

  it("a failed refund is retried by the sweeper until it succeeds", async () => {
    const { creator, campaign, pledges } = await chargedEvent();
    const failing = fakeGateway(new Set([pledges[0].id]));
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(
      (await cancelCampaign(v(creator), { campaignId: campaign.id }, { gateway: failing.gateway })).refunded,
    ).toBe(1);
    expect((await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } })).chargeStatus).toBe(
      "succeeded",
    );
    warn.mockRestore();
    const healthy = fakeGateway();
    expect(await refundOwedPledges(undefined, healthy.gateway)).toBe(1);
    expect((await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } })).chargeStatus).toBe(
      "refunded",
    );
  });

  it("only the organizer (or an admin) can cancel, and not an event that is over", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id });
    const expired = await createCampaign({ creatorId: creator.id, status: "expired" });
    const { gateway } = fakeGateway();
    await expect(cancelCampaign(null, { campaignId: campaign.id }, { gateway })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    await expect(
      cancelCampaign(v(await createUser()), { campaignId: campaign.id }, { gateway }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(cancelCampaign(v(creator), { campaignId: "../x" }, { gateway })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(cancelCampaign(v(creator), { campaignId: expired.id }, { gateway })).rejects.toMatchObject({
      code: "CONFLICT",
      message: "This event has already ended.",
    });
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("pending");
    await cancelCampaign(v(await createUser({ isAdmin: true })), { campaignId: campaign.id }, { gateway });
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("cancelled");
  });
});

describe("the cancel reason (issue 34)", () => {
  it("is optional, stored, shown to backers in the email (escaped) and on the event's row; a reason over 500 characters is refused and nothing changes", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id, ticketPriceCents: 1000 });
    const backer = await createUser();
    await createPledge(campaign.id, backer.id, { paymentMethodId: "pm_saved", amountCents: 1000 });

    await expect(
      cancelCampaign(v(creator), { campaignId: campaign.id, reason: "x".repeat(501) }),
    ).rejects.toThrow("The reason can be at most 500 characters.");
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("pending");
    expect(await db.emailOutbox.count({ where: { toEmail: backer.email } })).toBe(0);

    const reason = `  The venue <b>flooded</b> & "we" can't reopen  `;
    await cancelCampaign(v(creator), { campaignId: campaign.id, reason });
    const after = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([after.status, after.cancelReason]).toEqual(["cancelled", reason.trim()]);
    const mail = await db.emailOutbox.findFirstOrThrow({ where: { toEmail: backer.email } });
    expect(mail.text).toContain(`The reason given: ${reason.trim()}`);
    expect(mail.html).toContain("The venue &lt;b&gt;flooded&lt;/b&gt; &amp; &quot;we&quot;");
    expect(mail.html).not.toContain("<b>flooded</b>");
  });

  it("without a reason: none is stored or sent", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id });
    const backer = await createUser();
    await createPledge(campaign.id, backer.id);
    await cancelCampaign(v(creator), { campaignId: campaign.id, reason: "   " });
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).cancelReason).toBeNull();
    const mail = await db.emailOutbox.findFirstOrThrow({ where: { toEmail: backer.email } });
    expect(mail.text).not.toContain("The reason given");
  });
});
