import "server-only";
import { db, Prisma } from "@/lib/db";
import { isRowId } from "@/lib/ids";
import { CONFIRMED_STATUSES } from "@/lib/events/lifecycle";
import { statusIn } from "@/lib/events/sql";
import { isStanding, standingSql } from "@/lib/events/standing";
import { ticketQrDataUrl } from "@/lib/email/ticket-image";
import {
  displayTicketCode,
  hashTicketToken,
  isTicketToken,
  normalizeTicketCode,
} from "@/lib/security/ticket-token";
import { issueTickets, openTicketToken } from "@/lib/tickets/service";
import { TICKET_VOID_TEXT, ticketVoidReason, type TicketVoidReason } from "@/lib/tickets/void";

/**
 * Reading door tickets (issue 36). A holder's reads (My commitments, the event page's ticket route,
 * the print view) answer for the session's own user only and carry the token; the door's lookups
 * (by token or by short code, for the check-in page) carry the ticket's state and never the token.
 */

/** A ticket as its holder sees it. */
export type HolderTicket = {
  campaignId: string;
  pledgeId: string;
  /** "ABCD-EFGH" */
  code: string;
  token: string;
  /** the QR code of the token, a PNG data: URL */
  qr: string;
  void: { reason: TicketVoidReason; text: string } | null;
};

const ticketSelect = {
  id: true,
  code: true,
  tokenSealed: true,
  pledge: {
    select: {
      id: true,
      userId: true,
      campaignId: true,
      standing: true,
      chargeStatus: true,
      refundedAt: true,
      campaign: { select: { status: true } },
    },
  },
} satisfies Prisma.TicketSelect;
type TicketRow = Prisma.TicketGetPayload<{ select: typeof ticketSelect }>;

function voidOf(p: TicketRow["pledge"]) {
  const standing = isStanding(p.standing) ? p.standing : "withdrawn";
  const reason = ticketVoidReason({ ...p, standing, campaignStatus: p.campaign.status });
  return reason ? { reason, text: TICKET_VOID_TEXT[reason] } : null;
}

/**
 * The holder's confirmed places that have no ticket yet get theirs (a place confirmed by a path that
 * sends no "Event Confirmed!", e.g. a promotion): the read is the safety net of the issuing hooks.
 */
async function issueForHolder(userId: string, campaignId?: string) {
  const only = campaignId ? Prisma.sql`AND p."campaignId" = ${campaignId}` : Prisma.empty;
  const due = await db.$queryRaw<{ id: string; campaignId: string }[]>`
    SELECT p.id, p."campaignId" FROM "Pledge" p JOIN "Campaign" c ON c.id = p."campaignId"
    WHERE p."userId" = ${userId} ${only} AND p.charged = true AND ${Prisma.raw(standingSql(["in"], "p"))}
      AND c.status IN (${statusIn(CONFIRMED_STATUSES)})
      AND NOT EXISTS (SELECT 1 FROM "Ticket" t WHERE t."pledgeId" = p.id)`;
  const byEvent = new Map<string, string[]>();
  for (const p of due) byEvent.set(p.campaignId, [...(byEvent.get(p.campaignId) ?? []), p.id]);
  for (const [event, ids] of byEvent) await issueTickets(db, event, ids);
}

async function present(t: TicketRow): Promise<HolderTicket> {
  const token = await openTicketToken(t);
  return {
    campaignId: t.pledge.campaignId,
    pledgeId: t.pledge.id,
    code: displayTicketCode(t.code),
    token,
    qr: await ticketQrDataUrl(token),
    void: voidOf(t.pledge),
  };
}

/** Every ticket of `userId`, by pledge id (My commitments). */
export async function ticketsOfHolder(userId: string): Promise<Map<string, HolderTicket>> {
  await issueForHolder(userId);
  const rows = await db.ticket.findMany({ where: { pledge: { userId } }, select: ticketSelect });
  const tickets = await Promise.all(rows.map(present));
  return new Map(tickets.map((t) => [t.pledgeId, t]));
}

/**
 * The ticket of `userId` at one event (the event page, the print view): a valid one, else the latest
 * void one (a withdrawn place followed by a new commitment has two), or null. Nobody else's ever.
 */
export async function holderTicketAt(
  userId: string | null,
  campaignId: string,
): Promise<HolderTicket | null> {
  if (!userId) return null;
  await issueForHolder(userId, campaignId);
  // issue 37: the holder's own place (slot 0), not a guest seat's
  const rows = await db.ticket.findMany({
    where: { campaignId, pledge: { userId, guestSlot: 0 } },
    select: ticketSelect,
    orderBy: { issuedAt: "desc" },
  });
  const row = rows.find((r) => !voidOf(r.pledge)) ?? rows[0];
  return row ? present(row) : null;
}

/**
 * Issue 37: the valid tickets of the guest seats `userId` holds at one event (a group's seats not
 * claimed by anyone), in seat order — printed with the holder's own to pass on. None for anyone else.
 */
export async function guestTicketsAt(userId: string, campaignId: string): Promise<ShownTicket[]> {
  if (!isRowId(campaignId)) return [];
  await issueForHolder(userId, campaignId);
  const rows = await db.ticket.findMany({
    where: { campaignId, pledge: { userId, guestSlot: { gt: 0 } } },
    select: ticketSelect,
    orderBy: { pledge: { guestSlot: "asc" } },
  });
  return (await Promise.all(rows.filter((r) => !voidOf(r.pledge)).map(present))).map(shown);
}

/** A ticket as the door finds it: whose place (the pledge), and whether it admits. */
export type DoorTicket = {
  ticketId: string;
  pledgeId: string;
  campaignId: string;
  void: { reason: TicketVoidReason; text: string } | null;
};

const door = (t: TicketRow): DoorTicket => ({
  ticketId: t.id,
  pledgeId: t.pledge.id,
  campaignId: t.pledge.campaignId,
  void: voidOf(t.pledge),
});

/** The ticket a scanned token names, or null (no ticket has it; the caller compares the event). */
export async function ticketByToken(scanned: string): Promise<DoorTicket | null> {
  if (!isTicketToken(scanned)) return null;
  const t = await db.ticket.findUnique({
    where: { tokenHash: hashTicketToken(scanned) },
    select: ticketSelect,
  });
  return t ? door(t) : null;
}

/** The ticket a short code typed at the door names, at one event, or null. */
export async function ticketByCode(campaignId: string, typed: string): Promise<DoorTicket | null> {
  const code = normalizeTicketCode(typed);
  if (!code) return null;
  const t = await db.ticket.findUnique({
    where: { campaignId_code: { campaignId, code } },
    select: ticketSelect,
  });
  return t ? door(t) : null;
}

/** What the holder's ticket route and pages show: the QR image and the code, never the raw token as text. */
export type ShownTicket = Omit<HolderTicket, "token" | "pledgeId">;

/**
 * The ticket route's answer (app/api/me/tickets/[campaignId]): the session's own ticket at the event,
 * or null — for a visitor, for an id that is no event's, and for anyone without a ticket there (the
 * organizer and other members included). It takes no user id: nobody can ask for another's.
 */
export async function ticketForViewer(
  viewer: { id: string } | null,
  campaignId: string,
): Promise<ShownTicket | null> {
  if (!viewer || !isRowId(campaignId)) return null;
  const t = await holderTicketAt(viewer.id, campaignId);
  return t ? shown(t) : null;
}

const shown = (t: HolderTicket): ShownTicket => ({
  campaignId: t.campaignId,
  code: t.code,
  qr: t.qr,
  void: t.void,
});

/** My commitments: the viewer's tickets as shown, by pledge id. */
export async function shownTicketsOfHolder(userId: string): Promise<Record<string, ShownTicket>> {
  const all = await ticketsOfHolder(userId);
  return Object.fromEntries([...all].map(([pledgeId, t]) => [pledgeId, shown(t)]));
}
