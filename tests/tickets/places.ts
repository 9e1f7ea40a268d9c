import { db } from "@/lib/db";
import { createPledge, createUser } from "@/tests/helpers/factories";

/**
 * A confirmed event's charged place made by hand (as the charge pipeline leaves it), without a ticket.
 * `userId` defaults to a new user; the amount is 2,000 cents.
 */
export async function chargedPlace(campaignId: string, userId?: string) {
  const uid = userId ?? (await createUser()).id;
  const p = await createPledge(campaignId, uid, { amountCents: 2000 });
  await db.pledge.update({
    where: { id: p.id },
    data: {
      charged: true,
      chargeStatus: "succeeded",
      chargeType: "paid",
      chargedAt: new Date(),
      memberSince: new Date(),
    },
  });
  return p;
}
