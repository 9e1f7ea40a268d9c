import "server-only";
import { db } from "@/lib/db";
import { withEvent } from "@/lib/events/lock";
import { pledgeChargeCents } from "@/lib/events/lifecycle";
import { recordChargeResult } from "@/lib/ledger/pledge-state";
import { recordUnitResult, seatsAwaiting } from "@/lib/ledger/group-charges";
import { releaseSavedCards } from "@/lib/ledger/cards";
import { recordDrop, uncount } from "@/lib/campaigns/places";
import { afterPlacesFilled, fillOpenPlaces, type Filled } from "@/lib/campaigns/waitlist";
import { droppedEmails, paymentSelect } from "@/lib/charging/notify";
import { queueEmails } from "@/lib/email/service";
import type { PaymentGateway } from "@/lib/payments/types";
import { getGateway } from "@/lib/payments/gateway";

/**
 * A failed payment's recovery window closed unpaid (DESIGN §1 "failed payments", run by
 * lib/charging/recovery-pass.ts): the pledge is dropped as a withdrawal the backer did not choose —
 * under the campaign row lock, the counters drop as for a withdrawal, and the backer and the
 * organizer are told in the same transaction. Never while a payment of it is in flight
 * (recordDrop). Its saved card is released after. Returns whether this call dropped it.
 */
export async function dropUnpaidPledge(
  pledgeId: string,
  now: Date,
  gateway: PaymentGateway = getGateway(),
): Promise<boolean> {
  // A payment still waiting for the bank's authentication is cancelled first, so it cannot go
  // through after the drop; if it went through meanwhile, that success is recorded instead.
  const open = await db.pledge.findUnique({
    where: { id: pledgeId },
    select: {
      chargeStatus: true,
      paymentIntentId: true,
      amountCents: true,
      chargeUnitId: true,
      campaign: { select: { ticketPriceCents: true, pactType: true, depositCents: true } },
    },
  });
  // issue 37: a group's payment is dropped with its first seat, all its seats together
  const unitId = open?.chargeUnitId ?? null;
  if (unitId !== null && unitId !== pledgeId) return false;
  if (open?.chargeStatus === "requires_action" && open.paymentIntentId) {
    const final = await gateway.cancelIntent(open.paymentIntentId);
    if (final.status === "succeeded") {
      const seatCents = pledgeChargeCents(open.campaign, open);
      if (unitId) {
        const seats = await seatsAwaiting(db, unitId);
        await recordUnitResult(db, unitId, seatCents, seatCents * seats, final, null, seats);
      } else await recordChargeResult(pledgeId, seatCents, final);
      return false;
    }
  }
  const dropped = await db.$transaction(
    async (tx): Promise<{ campaignId: string; filled: Filled } | null> => {
      const pledge = await tx.pledge.findUnique({
        where: { id: pledgeId },
        select: { ...paymentSelect, amount: true, paymentMethodId: true, campaignId: true },
      });
      if (!pledge) return null;
      return withEvent(tx, pledge.campaignId, async () => {
        const seats = unitId
          ? await tx.pledge.findMany({
              where: { chargeUnitId: unitId },
              select: {
                id: true,
                amount: true,
                amountCents: true,
                paymentMethodId: true,
                waitlistedAt: true,
              },
              orderBy: { guestSlot: "asc" },
            })
          : [pledge];
        let dropped = 0;
        for (const seat of seats) {
          if (!(await recordDrop(tx, seat.id, now))) continue;
          await uncount(tx, pledge.campaignId, pledge.campaign, seat);
          dropped++;
        }
        if (dropped === 0) return null;
        await queueEmails(tx, droppedEmails({ ...pledge, seats: dropped }));
        // the place it held goes to the first in line (issue 20)
        return { campaignId: pledge.campaignId, filled: await fillOpenPlaces(tx, pledge.campaignId, now) };
      });
    },
  );
  if (!dropped) return false;
  await afterPlacesFilled(dropped.campaignId, dropped.filled);
  await releaseSavedCards(1, pledgeId).catch(() => 0); // its sweeper finishes otherwise
  return true;
}
