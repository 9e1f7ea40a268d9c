import "server-only";
import { isCancellable, isPaidEvent, STANDING_PLEDGE } from "@/lib/campaigns/lifecycle";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import { kickEmailSender, queueEmails } from "@/lib/email/service";
import { cancelledEmail } from "@/lib/campaigns/emails";
import { emailCampaignSelect } from "@/lib/campaigns/notifications";
import { getGateway } from "@/lib/payments/gateway";
import { type PaymentGateway } from "@/lib/payments/types";
import { cancelCampaignSchema } from "@/lib/cancellation/schema";
import type { Actor } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";
import { recordRefund, SETTLED_STATES } from "@/lib/charging/pledge-state";

/**
 * Cancelling an event: before confirmation nobody is charged (saved cards are released by the
 * deadline job's card release); after confirmation every succeeded charge is refunded through the
 * gateway. The status change and every attendee's email commit together under the row lock;
 * refunds run after the commit and are idempotent per pledge (the gateway's idempotency key is
 * the pledge id and the pledge records its refund once), and a sweeper finishes any that failed
 * or any charge that completed after the cancellation.
 */
export async function cancelCampaign(
  viewer: Actor,
  input: unknown,
  opts: { gateway?: PaymentGateway; now?: Date } = {},
): Promise<{ campaignId: string; refunded: number; emailed: number }> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { campaignId } = parseInput(cancelCampaignSchema, input, { message: "Invalid event." });
  const now = opts.now ?? new Date();

  const emailed = await db.$transaction(async (tx) => {
    const c = await loadCampaignFor(viewer, campaignId, "cancel", {
      tx,
      lock: true,
      select: { ...emailCampaignSelect, status: true },
    });
    if (!isCancellable(c.status)) {
      throw new AppError(
        "CONFLICT",
        c.status === "cancelled" ? "This event is already cancelled." : "This event has already ended.",
      );
    }
    await tx.campaign.update({
      where: { id: c.id },
      data: { status: "cancelled", cancelledAt: now, lastStatusUpdate: now },
    });
    const pledges = await tx.pledge.findMany({
      where: { campaignId, ...STANDING_PLEDGE }, // the waitlist hears too
      select: {
        userId: true,
        amountCents: true,
        chargeStatus: true,
        paymentMethodId: true,
        user: { select: { email: true, name: true } },
      },
    });
    const chargingStarted = c.status !== "pending";
    return queueEmails(
      tx,
      pledges.map((p) =>
        cancelledEmail(
          c,
          { userId: p.userId, email: p.user.email, name: p.user.name },
          p.chargeStatus === "succeeded" ? p.amountCents : 0,
          chargingStarted && p.chargeStatus !== "succeeded" && Boolean(p.paymentMethodId) && isPaidEvent(c),
        ),
      ),
    );
  });

  const refunded = await refundOwedPledges(campaignId, opts.gateway);
  await kickEmailSender();
  return { campaignId, refunded, emailed };
}

/**
 * Refunds every succeeded, not yet refunded charge that is owed back: those of cancelled events and
 * those withdrawn after a date or place change (issue 17) — for one event, or all of them for the
 * sweeper. Returns how many refunds this call recorded.
 */
export async function refundOwedPledges(
  campaignId?: string,
  gateway: PaymentGateway = getGateway(),
  take = 200,
): Promise<number> {
  const pledges = await db.pledge.findMany({
    where: {
      chargeStatus: "succeeded",
      refundId: null,
      paymentIntentId: { not: null },
      ...(campaignId ? { campaignId } : {}),
      // a place given up (issue 20) is refunded once whoever took it has paid
      OR: [
        { campaign: { status: "cancelled" } },
        { withdrawnAt: { not: null }, gaveUpAt: null },
        { withdrawnAt: { not: null }, handedTo: { chargeStatus: { in: [...SETTLED_STATES] } } },
      ],
    },
    take,
    select: { id: true, paymentIntentId: true },
  });
  let refunded = 0;
  for (const p of pledges) {
    try {
      const { refundId } = await gateway.refund({ pledgeId: p.id, paymentIntentId: p.paymentIntentId! });
      if (await recordRefund(p.id, refundId)) refunded++;
    } catch (err) {
      console.warn(
        `[cancellation] refund of pledge ${p.id} failed, the sweeper retries: ${(err as Error)?.message}`,
      );
    }
  }
  return refunded;
}
