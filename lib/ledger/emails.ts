import "server-only";
import { appUrl } from "@/lib/env";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";
import type { Standing } from "@/lib/events/standing";
import { cardShort, formatCents } from "@/lib/format";

/**
 * The ledger's own email (issue 34): the backer hears when their refund went through — a place
 * given up once its taker has paid ("we'll email you then", the give-up email promised), a
 * withdrawal after a change, a cancelled event, a dropped late payment. Queued in the transaction
 * that records the refund (lib/ledger/refunds recordRefund), under a key naming the pledge's refund,
 * so it exists once, and only once the refund did.
 */
export type RefundedPledge = {
  id: string;
  amountCents: number;
  cardBrand: string | null;
  cardLast4: string | null;
  standing: Standing;
  user: { email: string };
  campaign: { id: string; title: string; status: string };
};

export const refundEmailKey = (pledgeId: string) => `refunded:${pledgeId}`;

/** Why the money came back, in the backer's words. */
function becauseOf(p: RefundedPledge): string {
  const title = `"${p.campaign.title}"`;
  if (p.campaign.status === "cancelled") return `${title} was cancelled`;
  switch (p.standing) {
    case "gave_up":
      return `you gave up your place at ${title} and the person who took it has paid`;
    case "withdrawn":
      return `you withdrew from ${title}`;
    case "dropped":
      return `your place at ${title} was released`;
    default:
      return `of your commitment to ${title}`;
  }
}

export function refundIssuedEmail(p: RefundedPledge): QueuedEmail {
  const amount = formatCents(p.amountCents);
  const card = p.cardLast4 ? `your ${cardShort(p.cardBrand, p.cardLast4)}` : "your card";
  return {
    dedupeKey: refundEmailKey(p.id),
    to: p.user.email,
    subject: `Refunded: ${amount} for "${p.campaign.title}"`,
    ...renderEmail({
      heading: "Your refund is on its way",
      paragraphs: [
        `We refunded ${amount} to ${card} because ${becauseOf(p)}.`,
        "It can take 5 to 10 days to show on your statement. There is nothing more for you to do.",
      ],
      action: { label: "See My commitments", url: `${appUrl()}/profile#my-commitments` },
    }),
  };
}
