import "server-only";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/access/viewer";
import { CONFIRMED_STATUSES, inStatuses, isCrowdfund, pledgeChargeCents } from "@/lib/events/lifecycle";
import { formatInZone } from "@/lib/campaigns/event-time";
import { formatCents } from "@/lib/format";
import { AUTO_RETRY_AFTER_MS, paymentDueBy, recoveryPhase } from "@/lib/ledger/payment-window";
import type { Standing } from "@/lib/events/standing";
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
      chargeUnitId: true,
      groupId: true,
      guestSlot: true,
      campaign: { select: { id: true, title: true, timeZone: true, startsAt: true } },
    },
    orderBy: [{ paymentFailedAt: "asc" }, { id: "asc" }],
    take: 50,
  });
  return (
    rows
      .filter((p) => p.chargeUnitId === null || p.chargeUnitId === p.id) // issue 37: a group's one payment, once
      // a named friend's claimed seat is paid by the holder's card: not the friend's to pay (issue 37)
      .filter((p) => p.groupId === null || p.groupId === p.id || p.guestSlot > 0)
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
      .map(({ due: _due, ...a }) => a)
  );
}

/** My commitments' recovery card of a failed payment (lib/pledges/mine.ts). */
export type Recovery = {
  banner: string;
  dueAt: string;
  zone: string;
  consequence: string;
  retry: string | null;
};
type RecoveryRow = Omit<Parameters<typeof recoveryPhase>[0], "droppedAt"> & {
  standing: Standing;
  chargeStatus: string;
  amountCents: number;
  paymentFailedAt: Date | null;
  campaign: {
    status: string;
    timeZone: string;
    startsAt: Date | null;
    pactType: string | null;
    ticketPriceCents: number;
    depositCents: number;
  };
};

/** A failed payment's recovery window: the banner, the consequence and the automatic retry still to come. */
export function recoveryOf(p: RecoveryRow, now: Date, seats = 1): Recovery | null {
  if (p.standing !== "in" || !inStatuses(CONFIRMED_STATUSES, p.campaign.status)) return null;
  if (p.chargeStatus !== "failed" && p.chargeStatus !== "requires_action") return null;
  const zone = p.campaign.timeZone;
  // the whole payment: the ticket and a show-up deposit with it (issue 36), for each seat of a group's (issue 37)
  const cents =
    seats * (pledgeChargeCents(p.campaign, p) + (isCrowdfund(p.campaign) ? 0 : p.campaign.depositCents));
  const failedAt = p.paymentFailedAt ?? now;
  const dueAt = paymentDueBy(failedAt, p.campaign.startsAt);
  const due = formatInZone(dueAt, zone);
  const retryAt = failedAt.getTime() + AUTO_RETRY_AFTER_MS;
  return {
    dueAt: dueAt.toISOString(),
    zone,
    banner:
      p.chargeStatus === "requires_action"
        ? `Your ${formatCents(cents)} payment needs your confirmation — complete it by ${due}`
        : `Your ${formatCents(cents)} payment failed — update your card by ${due}`,
    consequence: "If it isn't paid by then, your place is released and you won't be charged.",
    retry:
      recoveryPhase({ ...p, droppedAt: null }) === "retrying" && retryAt < dueAt.getTime()
        ? `We'll also try your card once more on ${formatInZone(new Date(retryAt), zone)}.`
        : null,
  };
}
