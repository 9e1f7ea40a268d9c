import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { createCampaign, createUser } from "@/tests/helpers/factories";

vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn(), updateTag: vi.fn() }));

/**
 * Issue 37 item 2, a card on file, against the fake Stripe (the real SDK over HTTP): saving at the
 * first paid commitment, paying the next one with it (no new SetupIntent, charged off-session),
 * release keeping a saved card attached, removal asking for a replacement and moving the
 * commitments, and the one Customer per user under concurrency.
 */
let fake: FakeStripe;
let gateway: import("@/lib/payments/types").PaymentGateway;
let pledges: typeof import("@/lib/pledges/service");
let cards: typeof import("@/lib/pledges/saved-cards");
let withdraw: typeof import("@/lib/pledges/withdraw");
let ledger: typeof import("@/lib/ledger/cards");
let charging: typeof import("@/lib/charging/service");

beforeAll(async () => {
  fake = await startFakeStripe();
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000" });
  gateway = (await import("@/lib/payments/gateway")).getGateway();
  pledges = await import("@/lib/pledges/service");
  cards = await import("@/lib/pledges/saved-cards");
  withdraw = await import("@/lib/pledges/withdraw");
  ledger = await import("@/lib/ledger/cards");
  charging = await import("@/lib/charging/service");
});
afterAll(async () => {
  await fake.close();
});
beforeEach(() => fake.reset());

type Person = { id: string; email: string; name: string | null; isAdmin: boolean };

/** A person who went through the card sheet once: their Customer, and a card Stripe attached to it. */
async function personWithCard(): Promise<{ viewer: Person; customer: string; pm: string }> {
  const u = await createUser();
  await gateway.createSetupIntent(u);
  const { stripeCustomerId } = await db.user.findUniqueOrThrow({ where: { id: u.id } });
  const viewer = { id: u.id, email: u.email, name: u.name, isAdmin: false };
  return { viewer, customer: stripeCustomerId!, pm: fake.addPaymentMethod(stripeCustomerId!) };
}

const paidEvent = (goal = 5) => createCampaign({ goal, ticketPriceCents: 1500 });
const setupIntents = () => fake.state.requests.filter((r) => r.path === "/v1/setup_intents");
const attachedTo = (pm: string) => fake.state.paymentMethods.get(pm)!.customer;

describe("a card on file (issue 37)", () => {
  it("saving is the person's choice: unticked keeps nothing, ticked keeps the card as the default", async () => {
    const { viewer, pm } = await personWithCard();
    await pledges.commitToCampaign(viewer, { campaignId: (await paidEvent()).id, paymentMethodId: pm });
    expect(await cards.listSavedCards(viewer.id)).toEqual([]);

    const other = await personWithCard();
    await pledges.commitToCampaign(other.viewer, {
      campaignId: (await paidEvent()).id,
      paymentMethodId: other.pm,
      saveCard: true,
    });
    expect(await cards.defaultSavedCard(other.viewer)).toMatchObject({
      paymentMethodId: other.pm,
      brand: "visa",
      last4: "4242",
      isDefault: true,
    });
  });

  it("a saved card pays the second event in one tap: no new SetupIntent, charged off-session at the tip", async () => {
    const { viewer, customer, pm } = await personWithCard();
    await pledges.commitToCampaign(viewer, {
      campaignId: (await paidEvent()).id,
      paymentMethodId: pm,
      saveCard: true,
    });
    fake.reset();

    // the second event: the dialog sends the card on file, nothing else
    const second = await paidEvent(2);
    const offered = await cards.defaultSavedCard(viewer);
    const mine = await pledges.commitToCampaign(viewer, {
      campaignId: second.id,
      paymentMethodId: offered!.paymentMethodId,
    });
    const friend = await personWithCard();
    await pledges.commitToCampaign(friend.viewer, { campaignId: second.id, paymentMethodId: friend.pm });
    await charging.runCharging(second.id);

    expect(
      setupIntents().filter(
        (r) => r.body.metadata && (r.body.metadata as { userId?: string }).userId === viewer.id,
      ),
    ).toHaveLength(0);
    const charge = fake.state.requests.find(
      (r) =>
        r.path === "/v1/payment_intents" &&
        (r.body.metadata as { pledgeId?: string } | undefined)?.pledgeId === mine.pledgeId,
    )!;
    expect(charge.body).toMatchObject({ customer, payment_method: pm, off_session: "true", amount: "1500" });
    expect(fake.succeededChargesFor([mine.pledgeId])).toBe(1);
    const row = await db.pledge.findUniqueOrThrow({ where: { id: mine.pledgeId } });
    expect([row.paymentMethodId, row.chargeStatus]).toEqual([pm, "succeeded"]);
  });

  it("refuses someone else's card in the one tap (the provider's check of the owner)", async () => {
    const a = await personWithCard();
    const b = await personWithCard();
    await expect(
      pledges.commitToCampaign(b.viewer, { campaignId: (await paidEvent()).id, paymentMethodId: a.pm }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
  });

  it("release keeps a saved card attached and detaches an unsaved one", async () => {
    const saver = await personWithCard();
    const plain = await personWithCard();
    const event = await paidEvent();
    await pledges.commitToCampaign(saver.viewer, {
      campaignId: event.id,
      paymentMethodId: saver.pm,
      saveCard: true,
    });
    await pledges.commitToCampaign(plain.viewer, { campaignId: event.id, paymentMethodId: plain.pm });
    await withdraw.withdrawCommitment(saver.viewer, { campaignId: event.id });
    await withdraw.withdrawCommitment(plain.viewer, { campaignId: event.id });
    await ledger.releaseSavedCards();

    expect(attachedTo(saver.pm)).toBe(saver.customer);
    expect(attachedTo(plain.pm)).toBeNull();
    // both pledges forgot their card all the same
    const rows = await db.pledge.findMany({
      where: { campaignId: event.id },
      select: { paymentMethodId: true },
    });
    expect(rows.map((r) => r.paymentMethodId)).toEqual([null, null]);
    expect(await cards.listSavedCards(saver.viewer.id)).toHaveLength(1);
  });

  it("removing a card in use asks for a replacement, moves the commitments to it, then detaches the card", async () => {
    const { viewer, customer, pm } = await personWithCard();
    const first = await paidEvent();
    const second = await paidEvent();
    await pledges.commitToCampaign(viewer, { campaignId: first.id, paymentMethodId: pm, saveCard: true });
    await pledges.commitToCampaign(viewer, { campaignId: second.id, paymentMethodId: pm });

    // someone else cannot touch it
    const stranger = await personWithCard();
    await expect(cards.removeSavedCard(stranger.viewer, { paymentMethodId: pm })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(cards.makeDefaultCard(stranger.viewer, { paymentMethodId: pm })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });

    const asked = await cards.removeSavedCard(viewer, { paymentMethodId: pm });
    expect(asked).toEqual({
      status: "needs_replacement",
      commitments: [
        { campaignId: first.id, title: first.title },
        { campaignId: second.id, title: second.title },
      ],
    });
    expect(attachedTo(pm)).toBe(customer); // nothing changed
    // a replacement that is not the person's is refused, and nothing moves
    await expect(
      cards.removeSavedCard(viewer, { paymentMethodId: pm, replacementId: stranger.pm }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });

    const replacement = fake.addPaymentMethod(customer, "ok", "1881");
    expect(await cards.removeSavedCard(viewer, { paymentMethodId: pm, replacementId: replacement })).toEqual({
      status: "removed",
    });
    const rows = await db.pledge.findMany({
      where: { userId: viewer.id },
      select: { paymentMethodId: true, cardLast4: true },
    });
    expect(rows).toEqual([
      { paymentMethodId: replacement, cardLast4: "1881" },
      { paymentMethodId: replacement, cardLast4: "1881" },
    ]);
    expect(attachedTo(pm)).toBeNull();
    expect(attachedTo(replacement)).toBe(customer);
    // the replacement is on file now, and the default
    expect((await cards.listSavedCards(viewer.id)).map((c) => [c.paymentMethodId, c.isDefault])).toEqual([
      [replacement, true],
    ]);
  });

  it("a card backing nothing is removed at once; make default picks the offered one", async () => {
    const { viewer, customer, pm } = await personWithCard();
    const other = fake.addPaymentMethod(customer, "ok", "0005");
    await cards.rememberCard(viewer.id, await gateway.getCard(viewer, pm));
    await cards.rememberCard(viewer.id, await gateway.getCard(viewer, other));
    expect((await cards.defaultSavedCard(viewer))!.paymentMethodId).toBe(other);
    await cards.makeDefaultCard(viewer, { paymentMethodId: pm });
    expect((await cards.defaultSavedCard(viewer))!.paymentMethodId).toBe(pm);
    expect(await cards.removeSavedCard(viewer, { paymentMethodId: pm })).toEqual({ status: "removed" });
    expect(attachedTo(pm)).toBeNull();
    expect((await cards.defaultSavedCard(viewer))!.paymentMethodId).toBe(other);
  });

  it("creates the Customer once when five card sheets ask for it at the same moment", async () => {
    const u = await createUser();
    fake.state.latencyMs = 40; // the first creation is still running when the others arrive (409, then replay)
    try {
      await Promise.all([
        gateway.createSetupIntent(u),
        gateway.createSetupIntent(u),
        gateway.createSetupIntent(u),
        gateway.createSetupIntent(u),
        gateway.createSetupIntent(u),
      ]);
    } finally {
      fake.state.latencyMs = 0;
    }
    const created = [...fake.state.customers.values()].filter(
      (c) => (c.metadata as { userId?: string }).userId === u.id,
    );
    expect(created).toHaveLength(1);
    const { stripeCustomerId } = await db.user.findUniqueOrThrow({ where: { id: u.id } });
    expect(stripeCustomerId).toBe(created[0].id);
    const sis = setupIntents();
    expect(sis).toHaveLength(5);
    expect(new Set(sis.map((r) => r.body.customer))).toEqual(new Set([stripeCustomerId]));
  });
});
