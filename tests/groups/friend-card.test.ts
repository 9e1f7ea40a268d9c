import { describe, expect, it, vi } from "vitest";

vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn(), updateTag: vi.fn() }));

import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { changeCommitmentCard, CHANGE_CARD_TEXTS } from "@/lib/pledges/withdraw";
import { createCampaign } from "@/tests/helpers/factories";
import { demoCard } from "@/tests/helpers/demo-card";
import { nameAndClaim, person } from "@/tests/helpers/friends";
import { runCharging } from "@/lib/charging/service";
import { getMyCommitment } from "@/lib/pledges/mine";

/** Issue 37: a named friend's claimed seat is paid by the holder's card; the friend cannot swap it. */
describe("a named friend's seat and the card that pays for it", () => {
  it("the friend cannot put their own card on the claimed seat; the holder's card stays on it", async () => {
    const event = await createCampaign({ goal: 10, ticketPriceCents: 2000, maxSeats: 4 });
    const holder = await person("Holder");
    const friend = await person("Friend");
    const holderCard = await demoCard(holder.id, "4242424242424242");
    const friendCard = await demoCard(friend.id, "4242424242424242");
    await commitToCampaign(holder, { campaignId: event.id, paymentMethodId: holderCard, seats: 2 });
    await nameAndClaim(holder, event.id, 1, friend.email, friend);
    const seat = await db.pledge.findFirstOrThrow({ where: { campaignId: event.id, userId: friend.id } });
    expect(seat.paymentMethodId).toBe(holderCard);

    await expect(
      changeCommitmentCard(friend, { campaignId: event.id, paymentMethodId: friendCard }),
    ).rejects.toMatchObject({ message: CHANGE_CARD_TEXTS.friendSeat });
    const after = await db.pledge.findUniqueOrThrow({ where: { id: seat.id } });
    expect(after.paymentMethodId).toBe(holderCard);
    // the holder still changes the group's card
    const newer = await demoCard(holder.id, "5555555555554444");
    await expect(
      changeCommitmentCard(holder, { campaignId: event.id, paymentMethodId: newer }),
    ).resolves.toMatchObject({ last4: "4444" });
  });

  it("a failed group payment asks the holder for the group's amount; the friend is not asked to pay", async () => {
    const event = await createCampaign({ goal: 3, ticketPriceCents: 2000, maxSeats: 4 });
    const holder = await person("Holder");
    const friend = await person("Friend");
    const other = await person("Other");
    const failing = await demoCard(holder.id, "4000000000000341"); // saves, its charges fail
    await commitToCampaign(holder, { campaignId: event.id, paymentMethodId: failing, seats: 2 });
    await nameAndClaim(holder, event.id, 1, friend.email, friend);
    const card = await demoCard(other.id, "4242424242424242");
    await commitToCampaign(other, { campaignId: event.id, paymentMethodId: card });
    await runCharging(event.id);
    const theirs = await getMyCommitment(holder, { campaignId: event.id });
    expect(theirs?.recovery?.banner).toMatch(/^Your \$40\.00 payment failed/);
    expect(theirs?.payUrl).not.toBeNull();
    const friends = await getMyCommitment(friend, { campaignId: event.id });
    expect(friends).not.toBeNull();
    expect([friends!.payUrl, friends!.recovery]).toEqual([null, null]);
  });
});
