import { describe, expect, it, vi } from "vitest";

vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn(), updateTag: vi.fn() }));

import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { withdrawCommitment } from "@/lib/pledges/withdraw";
import { releaseSavedCards } from "@/lib/ledger/cards";
import { defaultSavedCard, removeSavedCard } from "@/lib/pledges/saved-cards";
import { createCampaign, createUser } from "../helpers/factories";

/** Issue 37 item 2 in demo mode: the demo gateway keeps saved cards the same way (no wallets). */
async function person() {
  const u = await createUser();
  return { id: u.id, email: u.email, name: u.name, isAdmin: false };
}
async function demoCard(userId: string, last4 = "4242"): Promise<string> {
  const id = `pm_demo_${Math.random().toString(16).slice(2, 14)}${Math.random().toString(16).slice(2, 14)}`;
  await db.demoPaymentMethod.create({
    data: { id, userId, brand: "visa", last4, expMonth: 12, expYear: 2030, behavior: "ok" },
  });
  return id;
}
const detached = async (id: string) =>
  (await db.demoPaymentMethod.findUniqueOrThrow({ where: { id } })).detached;

describe("a card on file in demo mode (issue 37)", () => {
  it("saved at the first paid commitment, offered and used on the next, kept through a withdrawal", async () => {
    const me = await person();
    const pm = await demoCard(me.id);
    const first = await createCampaign({ goal: 5, ticketPriceCents: 1000 });
    await commitToCampaign(me, { campaignId: first.id, paymentMethodId: pm, saveCard: true });
    const offered = await defaultSavedCard(me);
    expect(offered).toMatchObject({ paymentMethodId: pm, last4: "4242", isDefault: true });

    const second = await createCampaign({ goal: 5, ticketPriceCents: 700 });
    const r = await commitToCampaign(me, {
      campaignId: second.id,
      paymentMethodId: offered!.paymentMethodId,
    });
    expect((await db.pledge.findUniqueOrThrow({ where: { id: r.pledgeId } })).paymentMethodId).toBe(pm);

    await withdrawCommitment(me, { campaignId: first.id });
    await releaseSavedCards();
    expect(await detached(pm)).toBe(false);
    expect(await defaultSavedCard(me)).toMatchObject({ paymentMethodId: pm });
  });

  it("removing a card in use asks for a replacement, moves the commitment, and detaches the demo card", async () => {
    const me = await person();
    const pm = await demoCard(me.id);
    const event = await createCampaign({ goal: 5, ticketPriceCents: 1000 });
    await commitToCampaign(me, { campaignId: event.id, paymentMethodId: pm, saveCard: true });

    expect(await removeSavedCard(me, { paymentMethodId: pm })).toEqual({
      status: "needs_replacement",
      commitments: [{ campaignId: event.id, title: event.title }],
    });
    expect(await detached(pm)).toBe(false);
    // another person's card is not a replacement
    const other = await person();
    await expect(
      removeSavedCard(me, { paymentMethodId: pm, replacementId: await demoCard(other.id) }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });

    const next = await demoCard(me.id, "1881");
    expect(await removeSavedCard(me, { paymentMethodId: pm, replacementId: next })).toEqual({
      status: "removed",
    });
    const pledge = await db.pledge.findFirstOrThrow({ where: { campaignId: event.id, userId: me.id } });
    expect([pledge.paymentMethodId, pledge.cardLast4]).toEqual([next, "1881"]);
    expect(await detached(pm)).toBe(true);
    expect(await detached(next)).toBe(false);
    expect(await defaultSavedCard(me)).toMatchObject({ paymentMethodId: next });
  });

  it("a card nobody may see: refused with the same answer whether or not it exists", async () => {
    const me = await person();
    const other = await person();
    const theirs = await demoCard(other.id);
    await db.savedCard.create({
      data: {
        userId: other.id,
        paymentMethodId: theirs,
        brand: "visa",
        last4: "4242",
        expMonth: 12,
        expYear: 2030,
      },
    });
    for (const id of [theirs, "pm_demo_nothing"])
      await expect(removeSavedCard(me, { paymentMethodId: id })).rejects.toMatchObject({
        code: "NOT_FOUND",
        message: "That card is not one of your saved cards.",
      });
    expect(await db.savedCard.count({ where: { paymentMethodId: theirs } })).toBe(1);
  });
});
