import "server-only";
import { db } from "@/lib/db";

/** SPEC §7 response of POST /api/check-and-charge, for one campaign. */
export type ChargeSummary = {
  successful: { pledgeId: string; userId: string; paymentIntentId: string }[];
  failed: { pledgeId: string; userId: string; code: string; message: string }[];
  totalCharged: number;
  totalFailed: number;
};

export async function getChargeSummary(campaignId: string): Promise<ChargeSummary> {
  const pledges = await db.pledge.findMany({
    where: { campaignId, chargeStatus: { in: ["succeeded", "failed", "requires_action"] }, OR: [{ chargeType: null }, { chargeType: "paid" }] },
    select: { id: true, userId: true, chargeStatus: true, paymentIntentId: true, chargeFailureCode: true, chargeFailureMessage: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
  const successful = pledges
    .filter((p) => p.chargeStatus === "succeeded" && p.paymentIntentId)
    .map((p) => ({ pledgeId: p.id, userId: p.userId, paymentIntentId: p.paymentIntentId as string }));
  const failed = pledges
    .filter((p) => p.chargeStatus !== "succeeded")
    .map((p) => ({
      pledgeId: p.id,
      userId: p.userId,
      code: p.chargeFailureCode ?? "card_declined",
      message: p.chargeFailureMessage ?? "The charge failed.",
    }));
  return { successful, failed, totalCharged: successful.length, totalFailed: failed.length };
}

/** The recovery page's view of a pledge: only its backer may see it. */
export async function getPledgeForPayment(pledgeId: string, userId: string) {
  const pledge = await db.pledge.findUnique({
    where: { id: pledgeId },
    select: {
      id: true,
      userId: true,
      amountCents: true,
      chargeStatus: true,
      chargeFailureCode: true,
      chargeFailureMessage: true,
      chargedAt: true,
      cardBrand: true,
      cardLast4: true,
      paymentIntentId: true,
      campaign: { select: { id: true, title: true, ticketPriceCents: true, pactType: true, status: true } },
    },
  });
  if (!pledge || pledge.userId !== userId) return null;
  const amountCents = pledge.campaign.pactType === "crowdfund" ? pledge.amountCents : pledge.campaign.ticketPriceCents;
  return { ...pledge, amountCents };
}
