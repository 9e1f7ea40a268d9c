import "server-only";
import { isCancellable, isPaidEvent, STANDING_PLEDGE } from "@/lib/events/lifecycle";
import { db } from "@/lib/db";
import { cancel } from "@/lib/events/status";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import { kickEmailSender, queueEmails } from "@/lib/email/service";
import { cancelledEmail } from "@/lib/campaigns/emails";
import { emailCampaignSelect } from "@/lib/campaigns/notifications";
import { type PaymentGateway } from "@/lib/payments/types";
import { CANCEL_TEXTS, cancelCampaignSchema } from "@/lib/cancellation/schema";
import type { Actor } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";
import { refundOwedPledges } from "@/lib/ledger/refunds";

/**
 * Cancelling an event: before confirmation nobody is charged (saved cards are released by the
 * deadline job's card release); after confirmation every succeeded charge is refunded through the
 * gateway. The status change and every attendee's email commit together under the row lock;
 * refunds run after the commit through the ledger (lib/ledger/refunds.ts: exactly once per pledge),
 * and its sweeper finishes any that failed or any charge that completed after the cancellation.
 */
export async function cancelCampaign(
  viewer: Actor,
  input: unknown,
  opts: { gateway?: PaymentGateway; now?: Date } = {},
): Promise<{ campaignId: string; refunded: number; emailed: number }> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  // a reason too long says so; anything else about the input is an unknown event
  const tooLong = cancelCampaignSchema.safeParse(input).error?.issues.some((i) => i.path[0] === "reason");
  const { campaignId, reason } = parseInput(cancelCampaignSchema, input, {
    message: tooLong ? CANCEL_TEXTS.reasonTooLong : "Invalid event.",
  });
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
    await cancel(tx, c.id, now, reason);
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
          reason,
        ),
      ),
    );
  });

  const refunded = await refundOwedPledges(campaignId, opts.gateway);
  await kickEmailSender();
  return { campaignId, refunded, emailed };
}
