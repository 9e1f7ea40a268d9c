import crypto from "node:crypto";
import { db } from "@/lib/db";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

/**
 * Issue 36 item 3: a confirmed paid event ($20 tickets) with a $10 show-up deposit, in person, that
 * started `startedHoursAgo` hours ago and lasted an hour, with a 24-hour grace by default.
 */
export async function depositEvent(
  opts: { creatorId?: string; startedHoursAgo?: number; graceHours?: number; depositCents?: number } = {},
) {
  const start = Date.now() - (opts.startedHoursAgo ?? 2) * 3_600_000;
  const c = await createCampaign({
    creatorId: opts.creatorId,
    goal: 1,
    ticketPriceCents: 2000,
    status: "charged",
    deadline: new Date(start - 86_400_000),
    startsAt: new Date(start),
    endsAt: new Date(start + 3_600_000),
    venue: "The Hall",
    timeZone: "America/New_York",
  });
  return db.campaign.update({
    where: { id: c.id },
    data: {
      depositCents: opts.depositCents ?? 1000,
      depositGraceHours: opts.graceHours ?? 24,
      fundedAt: new Date(start - 86_400_000),
    },
  });
}

/**
 * A charged place at a deposit event as the charging run leaves it: one demo payment of ticket and
 * deposit, the ticket's money row (with the payment's id) and the deposit's (`<charge key>-deposit`).
 */
export async function depositPlace(campaignId: string, userId?: string) {
  const c = await db.campaign.findUniqueOrThrow({ where: { id: campaignId } });
  const uid = userId ?? (await createUser()).id;
  const p = await createPledge(campaignId, uid, { amountCents: c.ticketPriceCents });
  const pi = `pi_demo_${crypto.randomBytes(8).toString("hex")}`;
  const key = `pledge-${p.id}-attempt-1`;
  await db.demoPaymentIntent.create({
    data: {
      id: pi,
      idempotencyKey: key,
      paymentMethodId: "pm_demo_test",
      amountCents: c.ticketPriceCents + c.depositCents,
      status: "succeeded",
      metadata: { campaignId, depositCents: String(c.depositCents) },
    },
  });
  const pledge = await db.pledge.update({
    where: { id: p.id },
    data: {
      charged: true,
      chargeStatus: "succeeded",
      chargeType: "paid",
      chargedAt: new Date(),
      memberSince: new Date(),
      paymentIntentId: pi,
      chargeAttempts: 1,
    },
  });
  await db.moneyMovement.createMany({
    data: [
      {
        kind: "charge",
        purpose: "ticket",
        state: "succeeded",
        amountCents: c.ticketPriceCents,
        providerId: pi,
        idempotencyKey: key,
        campaignId,
        pledgeId: p.id,
      },
      {
        kind: "charge",
        purpose: "deposit",
        state: "succeeded",
        amountCents: c.depositCents,
        idempotencyKey: `${key}-deposit`,
        campaignId,
        pledgeId: p.id,
      },
    ],
  });
  return pledge;
}
