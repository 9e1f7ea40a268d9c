import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { duplicates, fundedPaidCampaign } from "@/tests/charging/helpers";

/*
 * Issue 36 item 3: a free event with a show-up deposit takes a card and money. At the tip it goes
 * down the charge path (not the free confirmation), and each place is charged the deposit alone, in
 * one payment, recorded as a ticket row of $0 and a deposit row of the deposit.
 */
let fake: FakeStripe;
let service: typeof import("@/lib/charging/service");

beforeAll(async () => {
  fake = await startFakeStripe({ latencyMs: 5 });
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000" });
  service = await import("@/lib/charging/service");
});
afterAll(async () => {
  await fake.close();
});

describe("charging a free event with a show-up deposit (real Stripe SDK against the fake Stripe)", () => {
  it("charges each place the deposit only, once, as its own money row", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, { pledges: 3, goal: 3, priceCents: 0 });
    await db.campaign.update({
      where: { id: campaign.id },
      data: {
        depositCents: 1000,
        startsAt: new Date(Date.now() + 9 * 86400_000),
        venue: "Old Hall",
      },
    });
    await service.runCharging(campaign.id);
    await service.runCharging(campaign.id); // a second trigger charges nothing again

    const ids = pledges.map((p) => p.id);
    expect(duplicates(fake, ids)).toEqual([]);
    expect(ids.every((id) => fake.chargeCount(id) === 1)).toBe(true);
    const asked = fake.state.requests.filter(
      (r) =>
        r.path === "/v1/payment_intents" &&
        ids.includes(String((r.body.metadata as Record<string, string>)?.pledgeId)),
    );
    expect(asked.length).toBe(3);
    expect(asked.every((r) => r.body.amount === "1000")).toBe(true);

    const rows = await db.pledge.findMany({ where: { campaignId: campaign.id } });
    // the ticket's part stays 0: the deposit is not the ticket
    expect(rows.every((p) => p.charged && p.chargeType === "paid" && p.amountCents === 0)).toBe(true);
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(c.status).toBe("charged");
    expect(c.chargeType).toBe("paid");

    const moves = await db.moneyMovement.findMany({
      where: { campaignId: campaign.id, kind: "charge" },
      select: { purpose: true, amountCents: true, state: true, pledgeId: true },
    });
    const deposits = moves.filter((m) => m.purpose === "deposit");
    expect(deposits.length).toBe(3);
    expect(deposits.every((m) => m.amountCents === BigInt(1000) && m.state === "succeeded")).toBe(true);
    expect(new Set(deposits.map((m) => m.pledgeId))).toEqual(new Set(ids));
    const tickets = moves.filter((m) => m.purpose === "ticket");
    expect(tickets.every((m) => m.amountCents === BigInt(0))).toBe(true);

    // the "Event Confirmed!" email says what was charged: the deposit, and its rules (the email
    // job derives it from the charged pledges; queued here as it does, idempotent by its key)
    const { queueConfirmedEmails } = await import("@/lib/campaigns/notifications");
    await db.$transaction((tx) => queueConfirmedEmails(tx, campaign.id));
    const mail = await db.emailOutbox.findFirst({
      where: { dedupeKey: { startsWith: `confirmed:${campaign.id}:` } },
      select: { text: true },
    });
    expect(mail?.text).toContain("You were charged $10.00.");
    expect(mail?.text).toContain("Free ticket + $10.00 show-up deposit, refunded when you check in.");
  });
});
