import "server-only";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/access/viewer";
import { CONFIRMED_STATUSES } from "@/lib/events/lifecycle";
import { formatInZone } from "@/lib/campaigns/event-time";
import { paymentDueBy } from "@/lib/ledger/payment-window";
import { RECOVERABLE_STATES } from "@/lib/ledger/pledge-state";

/**
 * What needs the signed-in backer's attention on every page (issue 34 item 2): a payment that
 * failed and may still be made. The account bar asks for it (app/api/me/attention) because pages
 * are shared cached copies and the layout reads no cookies. Only ever the viewer's own pledges:
 * the viewer is the one input, there is no id to ask about someone else.
 */
export type PaymentAttention = {
  pledgeId: string;
  campaignId: string;
  /** "Your payment for "Board games night" failed — pay by Dec 3, 2026, 7:00 PM EST" */
  text: string;
  /** the pay-by instant (ISO) and the event's zone it was written in */
  dueAt: string;
  zone: string;
  payUrl: string;
};

/** At most this many are listed: a backer with more sees the first and My commitments has the rest. */
const MAX_ITEMS = 5;

export const failedPaymentText = (title: string, requiresAction: boolean, due: string) =>
  requiresAction
    ? `Your payment for "${title}" needs your confirmation — confirm by ${due}`
    : `Your payment for "${title}" failed — pay by ${due}`;

/**
 * The viewer's failed payments whose recovery window is still open (lib/ledger/payment-window),
 * soonest pay-by first; none for a visitor. The same pledges as My commitments' recovery banners:
 * counted ("in") on a confirmed event, the charge failed or waits for the backer's confirmation.
 */
export async function paymentAttention(viewer: Viewer | null, now = new Date()): Promise<PaymentAttention[]> {
  if (!viewer) return [];
  const rows = await db.pledge.findMany({
    where: {
      userId: viewer.id,
      standing: "in",
      chargeStatus: { in: [...RECOVERABLE_STATES] },
      campaign: { status: { in: [...CONFIRMED_STATUSES] } },
    },
    select: {
      id: true,
      chargeStatus: true,
      paymentFailedAt: true,
      campaign: { select: { id: true, title: true, timeZone: true, startsAt: true } },
    },
    orderBy: [{ paymentFailedAt: "asc" }, { id: "asc" }],
    take: 50,
  });
  return rows
    .map((p) => {
      const dueAt = paymentDueBy(p.paymentFailedAt ?? now, p.campaign.startsAt);
      const zone = p.campaign.timeZone;
      return {
        pledgeId: p.id,
        campaignId: p.campaign.id,
        text: failedPaymentText(
          p.campaign.title,
          p.chargeStatus === "requires_action",
          formatInZone(dueAt, zone),
        ),
        dueAt: dueAt.toISOString(),
        zone,
        payUrl: `/pledges/${p.id}/pay`,
        due: dueAt,
      };
    })
    .filter((a) => a.due > now)
    .sort((a, b) => a.due.getTime() - b.due.getTime())
    .slice(0, MAX_ITEMS)
    .map(({ due: _due, ...a }) => a);
}
