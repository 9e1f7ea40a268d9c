import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { checkAndCharge } from "@/lib/charging/service";
import { payPledgeOnSession } from "@/lib/charging/recovery";
import { getPledgeForPayment } from "@/lib/charging/queries";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";
import { demoCard } from "@/tests/helpers/demo-card";

/** A confirmed paid event where backer 0's charge failed (0341) and backer 1's needed authentication (3184). */
async function eventWithFailures() {
  const creator = await createUser();
  const campaign = await createCampaign({ creatorId: creator.id, goal: 3, ticketPriceCents: 4200 });
  const users = [await createUser(), await createUser(), await createUser()];
  const cards = ["4000000000000341", "4000002760003184", "4242424242424242"];
  const pledges = [];
  for (let i = 0; i < 3; i++)
    pledges.push(
      await createPledge(campaign.id, users[i].id, {
        paymentMethodId: await demoCard(users[i].id, cards[i]),
      }),
    );
  await checkAndCharge(campaign.id, null);
  return { campaign, users, pledges };
}

const asViewer = (u: { id: string; email: string }) => ({ id: u.id, email: u.email, isAdmin: false });

describe("paying a failed charge on-session (/pledges/{id}/pay)", () => {
  it("lets only the backer see and pay the pledge, with a card of their own", async () => {
    const { users, pledges } = await eventWithFailures();
    const [alice, bob] = users;
    expect(await getPledgeForPayment(pledges[0].id, bob.id)).toBeNull();
    expect(await getPledgeForPayment(pledges[0].id, alice.id)).toMatchObject({
      chargeStatus: "failed",
      chargeFailureMessage: "Your card was declined.",
      amountCents: 4200,
    });

    const bobsCard = await demoCard(bob.id, "4242424242424242");
    await expect(
      payPledgeOnSession(asViewer(bob), { pledgeId: pledges[0].id, paymentMethodId: bobsCard }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(
      payPledgeOnSession(asViewer(alice), { pledgeId: pledges[0].id, paymentMethodId: bobsCard }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const stillFailed = await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } });
    expect([stillFailed.chargeStatus, stillFailed.chargeAttempts]).toEqual(["failed", 1]);
  });

  it("a declined new card reports the decline; a good one pays, once, and updates the event's totals", async () => {
    const { campaign, users, pledges } = await eventWithFailures();
    const alice = users[0];
    const declining = await demoCard(alice.id, "4000000000000341");
    expect(
      await payPledgeOnSession(asViewer(alice), { pledgeId: pledges[0].id, paymentMethodId: declining }),
    ).toEqual({ status: "failed", message: "Your card was declined." });

    const good = await demoCard(alice.id, "5555555555554444");
    expect(
      await payPledgeOnSession(asViewer(alice), { pledgeId: pledges[0].id, paymentMethodId: good }),
    ).toEqual({ status: "succeeded" });
    const p = await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } });
    expect(p).toMatchObject({
      chargeStatus: "succeeded",
      charged: true,
      verified: true,
      chargeType: "paid",
      paymentMethodId: good,
      cardBrand: "mastercard",
      cardLast4: "4444",
      chargeAttempts: 3,
    });
    await expect(
      payPledgeOnSession(asViewer(alice), { pledgeId: pledges[0].id, paymentMethodId: good }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([c.status, c.totalCharged, c.totalChargedCents]).toEqual(["charged", 2, 8400n]);
  });

  it("a card that needed authentication off-session pays on-session (the backer is present)", async () => {
    const { users, pledges } = await eventWithFailures();
    const bob = users[1];
    const sameCard = (await db.pledge.findUniqueOrThrow({ where: { id: pledges[1].id } })).paymentMethodId!;
    expect(
      await payPledgeOnSession(asViewer(bob), { pledgeId: pledges[1].id, paymentMethodId: sameCard }),
    ).toEqual({ status: "succeeded" });
  });

  it("refuses pledges that have nothing to pay", async () => {
    const { users, pledges } = await eventWithFailures();
    const carol = users[2];
    const card = await demoCard(carol.id, "4242424242424242");
    await expect(
      payPledgeOnSession(asViewer(carol), { pledgeId: pledges[2].id, paymentMethodId: card }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: "This commitment has already been paid." });
  });

  it("refuses to take money for a cancelled or expired event, with a sentence that says why (issue 14: it was charged, then refunded)", async () => {
    for (const [status, message] of [
      ["cancelled", "This event was cancelled, so there is nothing to pay. Nobody will be charged."],
      ["expired", "This event did not reach its goal, so there is nothing to pay. Nobody will be charged."],
    ] as const) {
      const { campaign, users, pledges } = await eventWithFailures();
      await db.campaign.update({ where: { id: campaign.id }, data: { status } });
      const alice = users[0];
      const good = await demoCard(alice.id, "5555555555554444");
      const before = await db.demoPaymentIntent.count();
      await expect(
        payPledgeOnSession(asViewer(alice), { pledgeId: pledges[0].id, paymentMethodId: good }),
      ).rejects.toMatchObject({ code: "CONFLICT", message });
      expect(await db.demoPaymentIntent.count()).toBe(before);
      expect((await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } })).chargeStatus).toBe(
        "failed",
      );
    }
  });
});
