import "server-only";
import { appUrl } from "@/lib/env";
import { db, type Prisma } from "@/lib/db";
import { statusIn } from "@/lib/events/sql";
import { formatCents, plural } from "@/lib/format";
import { coverUrl } from "@/lib/images/limits";
import { CONFIRMED_STATUSES, isCrowdfund, isPaidEvent, LIVE_PLEDGE } from "@/lib/events/lifecycle";
import { wentAhead } from "@/lib/events/money-sentences";
import { OUTCOME_STATES, RECOVERABLE_STATES } from "@/lib/ledger/pledge-state";
import { renderEmail } from "@/lib/email/render";
import type { QueuedEmail } from "@/lib/email/schema";
import { queueEmail } from "@/lib/email/service";

type Tx = Prisma.TransactionClient;

/**
 * The organizer's emails about money and the threshold (issue 19): when the event tips, and when
 * charging is done (collected, failed). Transactional (about money), so no unsubscribe link; the
 * hourly digest (lib/pledges/digest.ts) still counts new commitments beside them. Queued by the
 * per-minute derivation (lib/derived-emails.ts) from the durable state — `fundedAt`, `chargedAt` —
 * with one dedupe key per event, so each arrives once whichever path tipped or finished the event.
 */
type OrganizerCampaign = {
  id: string;
  title: string;
  goal: number;
  committedCount: number;
  ticketPriceCents: number;
  depositCents: number;
  pactType: string | null;
  raisedCents: bigint | number;
  /** issue 21: the organizer went ahead below the goal, with this many */
  goAheadAt?: Date | null;
  goAheadCount?: number | null;
  coverId: string | null;
  creatorId: string;
  creator: { email: string };
};

const organizerSelect = {
  id: true,
  title: true,
  goal: true,
  committedCount: true,
  ticketPriceCents: true,
  depositCents: true,
  pactType: true,
  raisedCents: true,
  goAheadAt: true,
  goAheadCount: true,
  coverId: true,
  creatorId: true,
  creator: { select: { email: true } },
} as const;

const manageUrl = (c: { id: string }) => `${appUrl()}/campaign/${c.id}/manage`;
const cover = (c: OrganizerCampaign) =>
  c.coverId ? `${appUrl()}${coverUrl(c.coverId, "medium")}` : undefined;

/** "12 people committed (goal 10)" or, for a crowdfund, "$1,240.00 pledged of the $1,000.00 goal". */
const reached = (c: OrganizerCampaign) =>
  isCrowdfund(c)
    ? `${formatCents(Number(c.raisedCents))} is pledged, against a goal of ${formatCents(c.goal * 100)}`
    : `${plural(c.committedCount, "person has", "people have")} committed, against a goal of ${c.goal}`;

export function organizerTippedEmail(c: OrganizerCampaign): QueuedEmail {
  const paid = isPaidEvent(c);
  // issue 34: an early go-ahead is the organizer's choice, not "reached its goal"
  const ahead = wentAhead(c);
  return {
    dedupeKey: `tipped:${c.id}:${c.creatorId}`,
    to: c.creator.email,
    subject: ahead ? `"${c.title}" is going ahead` : `"${c.title}" reached its goal`,
    ...renderEmail({
      imageUrl: cover(c),
      heading: ahead ? "You went ahead with your event" : "Your event reached its goal!",
      paragraphs: [
        ahead
          ? `"${c.title}" is happening: you went ahead with ${c.goAheadCount ?? "fewer than"} of the ${c.goal} people it aimed for. Everyone counted was told that you chose to go ahead.`
          : `"${c.title}" is happening: ${reached(c)}.`,
        paid
          ? "Every saved card is being charged now. We'll email you when charging is done, with what was collected and any payment that failed."
          : "It is free, so there is nothing to charge: everyone who committed has been told it is confirmed.",
      ],
      action: { label: "Manage the event", url: manageUrl(c) },
    }),
  };
}

export function organizerChargedEmail(
  c: OrganizerCampaign,
  totals: { charged: number; collectedCents: number; failed: number },
): QueuedEmail {
  const { charged, collectedCents, failed } = totals;
  return {
    dedupeKey: `charged-summary:${c.id}:${c.creatorId}`,
    to: c.creator.email,
    subject: `Charging done for "${c.title}": ${formatCents(collectedCents)} collected`,
    ...renderEmail({
      imageUrl: cover(c),
      heading: "Charging is done",
      paragraphs: [
        `${plural(charged, "payment", "payments")} went through for "${c.title}": ${formatCents(collectedCents)} collected.`,
        failed > 0
          ? `${plural(failed, "payment", "payments")} failed. ${failed === 1 ? "That backer has" : "Those backers have"} been emailed a link to update their card and pay; the manage page shows who.`
          : "No payment failed.",
      ],
      action: { label: "Manage the event", url: manageUrl(c) },
    }),
  };
}

/** Queues the tip email for the event's organizer (false when it was queued already). */
export async function queueOrganizerTippedEmail(tx: Tx, campaignId: string): Promise<boolean> {
  const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: organizerSelect });
  return c ? queueEmail(tx, organizerTippedEmail(c)) : false;
}

/** Queues the charging summary, counted from the pledges as they stand now. */
export async function queueOrganizerChargedEmail(tx: Tx, campaignId: string): Promise<boolean> {
  const c = await tx.campaign.findUnique({ where: { id: campaignId }, select: organizerSelect });
  if (!c) return false;
  const groups = await tx.pledge.groupBy({
    by: ["chargeStatus"],
    where: { campaignId, ...LIVE_PLEDGE, chargeStatus: { in: [...OUTCOME_STATES] } },
    _count: { _all: true },
    _sum: { amountCents: true },
  });
  const of = (s: string) => groups.find((g) => g.chargeStatus === s);
  return queueEmail(
    tx,
    organizerChargedEmail(c, {
      charged: of("succeeded")?._count._all ?? 0,
      collectedCents: of("succeeded")?._sum.amountCents ?? 0,
      failed: RECOVERABLE_STATES.reduce((n, s) => n + (of(s)?._count._all ?? 0), 0),
    }),
  );
}

/** The events whose organizer email is due: tipped (or charged) since `since`, without it yet. */
export async function dueOrganizerEmails(since: Date, take: number) {
  const [tipped, charged] = await Promise.all([
    db.$queryRaw<{ id: string }[]>`
      SELECT c.id FROM "Campaign" c
      WHERE c."fundedAt" > ${since} AND c.status IN (${statusIn(CONFIRMED_STATUSES)})
        AND NOT EXISTS (SELECT 1 FROM "EmailOutbox" o WHERE o."dedupeKey" = 'tipped:' || c.id || ':' || c."creatorId")
      ORDER BY c."fundedAt" ASC LIMIT ${take}`,
    db.$queryRaw<{ id: string }[]>`
      SELECT c.id FROM "Campaign" c
      WHERE c."chargedAt" > ${since} AND c.status = 'charged' AND c."chargeType" = 'paid'
        AND NOT EXISTS (SELECT 1 FROM "EmailOutbox" o WHERE o."dedupeKey" = 'charged-summary:' || c.id || ':' || c."creatorId")
      ORDER BY c."chargedAt" ASC LIMIT ${take}`,
  ]);
  return { tipped: tipped.map((r) => r.id), charged: charged.map((r) => r.id) };
}
