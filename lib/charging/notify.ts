import "server-only";
import { db } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { formatCents } from "@/lib/format";
import { pledgeChargeCents } from "@/lib/campaigns/lifecycle";
import { isRecoverable } from "@/lib/charging/pledge-state";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";
import { queueEmail } from "@/lib/email/service";
import { declineInPlainWords } from "@/lib/payments/declines";

/**
 * Called once a pledge's charge failed or needs authentication: writes the backer's email to the
 * outbox (DESIGN §1 "failed charges"); the email job sends it. One email per failure episode, not
 * per attempt (issue 14: a retried soft decline sent one email per click): the dedupe key names the
 * pledge and its episode — a pledge has one until the recovery window's reminders arrive.
 */
export async function onChargeFailed(pledgeId: string): Promise<void> {
  const pledge = await db.pledge.findUnique({
    where: { id: pledgeId },
    select: {
      id: true,
      userId: true,
      chargeStatus: true,
      chargeFailureCode: true,
      chargeFailureMessage: true,
      amountCents: true,
      cardBrand: true,
      cardLast4: true,
      user: { select: { email: true } },
      campaign: { select: { title: true, ticketPriceCents: true, pactType: true } },
    },
  });
  if (!pledge || !isRecoverable(pledge.chargeStatus)) return;
  const amount = formatCents(pledgeChargeCents(pledge.campaign, pledge));
  const title = pledge.campaign.title;
  const card = pledge.cardLast4
    ? `your ${pledge.cardBrand ? pledge.cardBrand[0].toUpperCase() + pledge.cardBrand.slice(1) : "card"} ending in ${pledge.cardLast4}`
    : "your card";
  const reason =
    pledge.chargeStatus === "requires_action"
      ? declineInPlainWords("authentication_required", null)
      : declineInPlainWords(pledge.chargeFailureCode, pledge.chargeFailureMessage);
  const email: QueuedEmail = {
    dedupeKey: `charge-failed:${pledge.id}:1`,
    to: pledge.user.email,
    subject: `Action needed: your ${amount} payment for "${title}" didn't go through`,
    ...renderEmail({
      heading: "Your payment didn't go through",
      paragraphs: [
        `"${title}" reached its goal, so everyone who committed is being charged. We tried to charge ${card} ${amount}, and it didn't work: ${reason}`,
        pledge.chargeStatus === "requires_action"
          ? "Open the link below to confirm the payment with your bank, or pay with another card, to keep your place."
          : "Update your card on the page below and pay, to keep your place. You are charged once, only when you press Pay.",
      ],
      action: { label: `Pay ${amount}`, url: `${appUrl()}/pledges/${pledge.id}/pay` },
    }),
  };
  await db.$transaction((tx) => queueEmail(tx, email));
}
