import "server-only";
import { appUrl } from "@/lib/env";
import type { Prisma } from "@/lib/db";
import { formatCents } from "@/lib/format";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";

type Tx = Prisma.TransactionClient;

/** To the organizer when money was transferred to their payout account (issue 23). */
export async function payoutSentEmail(
  tx: Tx,
  row: { id: string; campaignId: string; amountCents: bigint },
): Promise<QueuedEmail> {
  const c = await tx.campaign.findUniqueOrThrow({
    where: { id: row.campaignId },
    select: { id: true, title: true, creatorId: true, creator: { select: { email: true } } },
  });
  return {
    dedupeKey: `payout-sent:${row.id}`,
    to: c.creator.email,
    subject: `Payout sent: ${formatCents(Number(row.amountCents))} for "${c.title}"`,
    ...renderEmail({
      heading: "Your payout is on its way",
      paragraphs: [
        `${formatCents(Number(row.amountCents))} from "${c.title}" was transferred to your payout account, after fees and refunds.`,
        "Your bank usually shows it within a few business days. The payouts page has the breakdown and a CSV.",
      ],
      action: { label: "View payouts", url: `${appUrl()}/payouts` },
    }),
  };
}

/** To the organizer when their payout account needs attention (the provider restricted it). */
export function payoutAccountAttentionEmail(
  to: { userId: string; email: string },
  requirements: string | null,
  stamp: string,
): QueuedEmail {
  return {
    dedupeKey: `payout-account:${to.userId}:${stamp}`,
    to: to.email,
    subject: "Your payout account needs attention",
    ...renderEmail({
      heading: "Your payout account needs attention",
      paragraphs: [
        "We can't send your events' money to your payout account until a few details are updated.",
        ...(requirements ? [requirements] : []),
      ],
      action: { label: "Update payout details", url: `${appUrl()}/payouts` },
    }),
  };
}
