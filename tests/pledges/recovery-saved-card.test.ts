import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { getGateway } from "@/lib/payments/gateway";
import { checkAndCharge } from "@/lib/charging/service";
import { payPledgeOnSession } from "@/lib/charging/recovery";
import { recoveryCard, rememberCard } from "@/lib/pledges/saved-cards";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";
import { demoCard } from "@/tests/helpers/demo-card";

/* Issue 37: the pay page of a failed payment offers the backer's card on file in one tap (demo gateway). */

const asViewer = (u: { id: string; email: string }) => ({
  id: u.id,
  email: u.email,
  name: null,
  isAdmin: false,
});

/** Kept on file as the card sheet's ticked box does (the provider says it is theirs). */
async function saved(u: { id: string; email: string }, cardNumber: string) {
  const pm = await demoCard(u.id, cardNumber);
  await rememberCard(u.id, await getGateway().getCard(asViewer(u), pm));
  return pm;
}

/** A confirmed paid event (goal 2) where Alice's charge on `failing` was declined; Bo paid. */
async function failedFor(failingNumber = "4000000000000341") {
  const campaign = await createCampaign({ goal: 2, ticketPriceCents: 4200 });
  const alice = await createUser();
  const bo = await createUser();
  const failing = await demoCard(alice.id, failingNumber);
  const pledge = await createPledge(campaign.id, alice.id, { paymentMethodId: failing });
  await createPledge(campaign.id, bo.id, { paymentMethodId: await demoCard(bo.id, "4242424242424242") });
  await checkAndCharge(campaign.id, null);
  return { campaign, alice, bo, pledge, failing };
}

describe("the pay page's card on file", () => {
  it("offers another saved card first, and paying with it completes the recovery exactly once", async () => {
    const { campaign, alice, pledge, failing } = await failedFor();
    expect((await db.pledge.findUniqueOrThrow({ where: { id: pledge.id } })).chargeStatus).toBe("failed");
    expect(await recoveryCard(asViewer(alice), pledge.id)).toBeNull(); // nothing on file yet
    await rememberCard(alice.id, await getGateway().getCard(asViewer(alice), failing)); // the failed one, saved
    const other = await saved(alice, "5555555555554444"); // and another
    // the failed card is the older one; the other one is offered even were the failed one the default
    await db.savedCard.updateMany({ where: { userId: alice.id }, data: { isDefault: false } });
    await db.savedCard.updateMany({ where: { paymentMethodId: failing }, data: { isDefault: true } });
    expect(await recoveryCard(asViewer(alice), pledge.id)).toMatchObject({
      paymentMethodId: other,
      brand: "mastercard",
      last4: "4444",
    });

    // two taps at once (two tabs): one payment, one charge
    const before = await db.demoPaymentIntent.count({ where: { paymentMethodId: other } });
    const results = await Promise.allSettled([
      payPledgeOnSession(asViewer(alice), { pledgeId: pledge.id, paymentMethodId: other }),
      payPledgeOnSession(asViewer(alice), { pledgeId: pledge.id, paymentMethodId: other }),
    ]);
    const ok = results.filter((r) => r.status === "fulfilled" && r.value.status === "succeeded");
    expect(ok).toHaveLength(1);
    expect(await db.demoPaymentIntent.count({ where: { paymentMethodId: other, status: "succeeded" } })).toBe(
      before + 1,
    );
    const p = await db.pledge.findUniqueOrThrow({ where: { id: pledge.id } });
    expect(p).toMatchObject({
      chargeStatus: "succeeded",
      charged: true,
      paymentMethodId: other,
      cardLast4: "4444",
    });
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([c.totalCharged, c.totalChargedCents]).toEqual([2, 8400n]);
    // paid: nothing is offered any more, and a third tap is refused
    expect(await recoveryCard(asViewer(alice), pledge.id)).toBeNull();
    await expect(
      payPledgeOnSession(asViewer(alice), { pledgeId: pledge.id, paymentMethodId: other }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("the failed card itself only after a soft decline or authentication, never after a hard one", async () => {
    const soft = await failedFor();
    await rememberCard(soft.alice.id, await getGateway().getCard(asViewer(soft.alice), soft.failing));
    expect(await recoveryCard(asViewer(soft.alice), soft.pledge.id)).toMatchObject({
      paymentMethodId: soft.failing,
    });
    await db.pledge.update({ where: { id: soft.pledge.id }, data: { chargeFailureCode: "expired_card" } });
    expect(await recoveryCard(asViewer(soft.alice), soft.pledge.id)).toBeNull();

    const auth = await failedFor("4000002760003184");
    expect((await db.pledge.findUniqueOrThrow({ where: { id: auth.pledge.id } })).chargeStatus).toBe(
      "requires_action",
    );
    await rememberCard(auth.alice.id, await getGateway().getCard(asViewer(auth.alice), auth.failing));
    expect(await recoveryCard(asViewer(auth.alice), auth.pledge.id)).toMatchObject({
      paymentMethodId: auth.failing,
    });
  });

  it("is only ever the viewer's own card, for their own payment", async () => {
    const { alice, bo, pledge } = await failedFor();
    const bosCard = await saved(bo, "4242424242424242");
    // Bo sees no offer for Alice's payment, and Alice none of Bo's cards
    expect(await recoveryCard(asViewer(bo), pledge.id)).toBeNull();
    expect(await recoveryCard(asViewer(alice), pledge.id)).toBeNull();
    expect(await recoveryCard(null, pledge.id)).toBeNull();
    // a card that is not hers is refused by the payment, and nothing changes
    await expect(
      payPledgeOnSession(asViewer(alice), { pledgeId: pledge.id, paymentMethodId: bosCard }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    const alicesCard = await saved(alice, "5555555555554444");
    await expect(
      payPledgeOnSession(asViewer(bo), { pledgeId: pledge.id, paymentMethodId: alicesCard }),
    ).rejects.toMatchObject({ code: "NOT_FOUND" });
    expect((await db.pledge.findUniqueOrThrow({ where: { id: pledge.id } })).chargeStatus).toBe("failed");
  });
});
