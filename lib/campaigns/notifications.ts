import "server-only";
import type { Prisma } from "@/lib/db";
import { LIVE_PLEDGE } from "@/lib/events/lifecycle";
import { whenWhereSelect } from "@/lib/campaigns/place";
import { appUrl } from "@/lib/env";
import { renderEmail } from "@/lib/email/render";
import { queueEmail, queueEmails } from "@/lib/email/service";
import { commitReceivedEmail, eventConfirmedEmail, type Recipient } from "@/lib/campaigns/emails";
import type { QueuedEmail } from "@/lib/email/schema";
import { promotedTicketEmail, toldAtPromotion } from "@/lib/campaigns/waitlist-emails";
import { issueTickets } from "@/lib/tickets/service";

/**
 * One-line hooks for the services that own each cause: call them INSIDE the transaction that
 * makes the change, then kickEmailSender() after it commits. Each reads what it needs through
 * `tx` (so it sees the uncommitted change) and is idempotent through the dedupe key.
 */
type Tx = Prisma.TransactionClient;

/** What an email about an event shows of it (templates' EmailCampaign). */
export const emailCampaignSelect = {
  id: true,
  title: true,
  description: true,
  deadline: true,
  goal: true,
  committedCount: true,
  ticketPriceCents: true,
  depositCents: true,
  depositGraceHours: true,
  pactType: true,
  raisedCents: true,
  earlyGoAhead: true,
  goAheadAt: true,
  goAheadCount: true,
  ...whenWhereSelect,
  coverId: true,
} as const;

/** Commit flow: the backer's confirmation with a TENTATIVE calendar entry. */
export async function queueCommitEmail(tx: Tx, pledgeId: string): Promise<boolean> {
  const p = await tx.pledge.findUnique({
    where: { id: pledgeId },
    select: {
      id: true,
      userId: true,
      amountCents: true,
      user: { select: { email: true, name: true } },
      campaign: { select: emailCampaignSelect },
    },
  });
  if (!p) return false;
  return queueEmail(
    tx,
    commitReceivedEmail(
      p.campaign,
      { userId: p.userId, email: p.user.email, name: p.user.name },
      p.id,
      p.amountCents,
    ),
  );
}

type Seat = {
  id: string;
  groupId: string | null;
  guestSlot: number;
  chargeType: string | null;
  amountCents: number;
};

/**
 * Issue 37: which charged seats a person's email speaks for — their own and their guests' seats, and
 * for a group's holder the seats named friends claimed (the holder's card paid them); a named friend's
 * claimed seat is the holder's money, never the friend's.
 */
async function seatsPaidBy(tx: Tx, pledges: Seat[]): Promise<(seats: Seat[]) => Seat[]> {
  const holders = pledges.filter((p) => p.groupId === p.id).map((p) => p.id);
  const claimed =
    holders.length === 0
      ? []
      : await tx.pledge.findMany({
          where: {
            groupId: { in: holders },
            guestSlot: 0,
            charged: true,
            chargeType: "paid",
            ...LIVE_PLEDGE,
          },
          select: { id: true, groupId: true, guestSlot: true, chargeType: true, amountCents: true },
        });
  return (seats) => {
    const own = seats[0]!;
    const mine = seats.filter(
      (p) => p.chargeType === "paid" && (p.groupId === null || p.groupId === p.id || p.guestSlot > 0),
    );
    const friends =
      own.groupId === own.id ? claimed.filter((p) => p.groupId === own.id && p.id !== own.id) : [];
    return [...mine, ...friends];
  };
}

/**
 * Charging / free confirmation: "Event Confirmed!" with the amount charged, the door ticket (issued
 * here first, issue 36) and the CONFIRMED calendar entry, to each attendee whose pledge is charged (call it where a pledge's charge is
 * recorded as succeeded, or once for a free event: it covers every charged pledge). Returns how
 * many were newly queued.
 */
export async function queueConfirmedEmails(
  tx: Tx,
  campaignId: string,
  onlyPledgeId?: string,
): Promise<number> {
  const c = await tx.campaign.findUnique({
    where: { id: campaignId },
    select: { ...emailCampaignSelect, fundedAt: true },
  });
  if (!c) return 0;
  // issue 37: a person's email speaks for all their seats (a holder's group pays once): the seats of
  // the person whose pledge this is
  const only = onlyPledgeId
    ? await tx.pledge.findUnique({ where: { id: onlyPledgeId }, select: { userId: true } })
    : null;
  if (onlyPledgeId && !only) return 0;
  const where = { campaignId, charged: true, ...LIVE_PLEDGE, ...(only ? { userId: only.userId } : {}) };
  // issue 36: each confirmed place has its door ticket before its email is written (idempotent)
  const ids = only ? (await tx.pledge.findMany({ where, select: { id: true } })).map((p) => p.id) : undefined;
  await issueTickets(tx, campaignId, ids);
  const pledges = await tx.pledge.findMany({
    where,
    select: {
      id: true,
      groupId: true,
      guestSlot: true,
      ticket: { select: { code: true, tokenSealed: true } },
      userId: true,
      amountCents: true,
      chargeType: true,
      promotedAt: true,
      memberSince: true,
      user: { select: { email: true, name: true } },
    },
    orderBy: [{ guestSlot: "asc" }, { id: "asc" }],
  });
  const toEach = (p: (typeof pledges)[number]) => ({
    userId: p.userId,
    email: p.user.email,
    name: p.user.name,
  });
  // a person's own seat first (guestSlot 0), then their guests' seats: one email each, for them all
  const people = new Map<string, (typeof pledges)[number][]>();
  for (const p of pledges) people.set(p.userId, [...(people.get(p.userId) ?? []), p]);
  const paidBy = await seatsPaidBy(tx, pledges);
  return queueEmails(tx, [
    // a promotion into the confirmed event said it all in its own email (issue 34), but its ticket (issue 36)
    ...pledges.flatMap((p) =>
      toldAtPromotion(p, c) && p.ticket ? [promotedTicketEmail(c, toEach(p), p.ticket)] : [],
    ),
    ...[...people.values()]
      .map((seats) => seats.filter((p) => !toldAtPromotion(p, c)))
      .filter((seats) => seats.length > 0)
      .map((seats) => {
        const own = seats[0]!;
        const paid = paidBy(seats);
        const friendSeat = own.groupId !== null && own.groupId !== own.id && own.guestSlot === 0;
        return eventConfirmedEmail(
          c,
          toEach(own),
          paid.reduce((sum, p) => sum + p.amountCents, 0),
          own.ticket ?? undefined,
          // issue 36: the show-up deposit was charged in the same payment as the ticket, per seat
          c.depositCents * paid.length,
          { seats: paid.length, paidByHolder: friendSeat && paid.length === 0 },
        );
      }),
  ]);
}

/** Moderation: the organizer hears about an approval or a rejection (one email per ModerationLog row). */
export async function queueModerationEmail(tx: Tx, moderationLogId: string): Promise<boolean> {
  const log = await tx.moderationLog.findUnique({
    where: { id: moderationLogId },
    select: {
      id: true,
      toStatus: true,
      reason: true,
      campaign: {
        select: { id: true, title: true, creatorId: true, creator: { select: { email: true, name: true } } },
      },
    },
  });
  if (!log || log.toStatus === "pending") return false;
  const c = log.campaign;
  return queueEmail(
    tx,
    moderationEmail(
      c,
      { userId: c.creatorId, email: c.creator.email, name: c.creator.name },
      log.toStatus,
      log.id,
      log.reason,
    ),
  );
}

/**
 * One email per person among `rows`, to the row's user (issue 20/21: promotions, a closed waitlist,
 * released conditions): the users are read once, and a row whose user is gone gets none. Issue 37: a
 * group's seats are one person's rows (the holder's), told once, by the first of them.
 */
export async function queueToEach<R extends { userId: string }>(
  tx: Tx,
  rows: R[],
  email: (row: R, to: Recipient) => QueuedEmail,
): Promise<number> {
  if (rows.length === 0) return 0;
  const users = await tx.user.findMany({
    where: { id: { in: rows.map((r) => r.userId) } },
    select: { id: true, email: true, name: true },
  });
  const byId = new Map(users.map((u) => [u.id, u]));
  return queueEmails(
    tx,
    rows.flatMap((r, i) => {
      if (rows.findIndex((x) => x.userId === r.userId) !== i) return []; // told by their first row
      const u = byId.get(r.userId);
      return u ? [email(r, { userId: u.id, email: u.email, name: u.name })] : [];
    }),
  );
}

/** To the organizer when an admin approves or rejects the event. `moderationId` names the decision. */
export function moderationEmail(
  c: { id: string; title: string },
  to: { userId: string; email: string; name?: string | null },
  decision: "approved" | "rejected",
  moderationId: string,
  reason?: string | null,
): QueuedEmail {
  return {
    dedupeKey: `moderation:${moderationId}:${to.userId}`,
    to: to.email,
    subject: decision === "approved" ? `"${c.title}" is approved and live` : `"${c.title}" was not approved`,
    ...renderEmail({
      heading: decision === "approved" ? "Your event is live" : "Your event was not approved",
      paragraphs:
        decision === "approved"
          ? [`An admin approved "${c.title}". It is now listed on PactNexus and people can commit.`]
          : [
              `An admin rejected "${c.title}", so it is not listed. You can still see it on your profile.`,
              ...(reason ? [`The reason given: ${reason}`] : []),
            ],
      action: { label: "View the event", url: `${appUrl()}/campaign/${c.id}` },
    }),
  };
}
