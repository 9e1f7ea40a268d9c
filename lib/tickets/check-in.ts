import "server-only";
import { z } from "zod";
import { db, Prisma } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { isRowId } from "@/lib/ids";
import { parseInput } from "@/lib/actions";
import type { IdentityFacts } from "@/lib/access/rules";
import { isStanding } from "@/lib/events/standing";
import { anonymousAttendee, numberedAttendee, presentIdentity } from "@/lib/privacy/present";
import { consume, secondsText } from "@/lib/rate-limit/service";
import { normalizeTicketCode } from "@/lib/security/ticket-token";
import { ticketByToken } from "@/lib/tickets/queries";
import { issueTickets } from "@/lib/tickets/service";
import { TICKET_VOID_TEXT, ticketVoidReason } from "@/lib/tickets/void";
import { DOOR_TEXT, doorRoleOf, type DoorActor, type DoorRole } from "@/lib/tickets/door-helpers";
import { refundOwedDeposits } from "@/lib/ledger/deposits";

/**
 * Checking attendees in at the door (issue 36 item 2). Only the event's organizer and its door
 * helpers may; a helper sees people as a member does ("Anonymous Attendee #n" where the event hides
 * names: lib/privacy/present.ts decides). A ticket is checked in once, ever: the CheckIn row's
 * ticket id is unique, so of two doors scanning one ticket at once one inserts and the other reads
 * who did. Typed codes are rate-limited per event (8 characters; guessing must stay hopeless).
 */

/** What the door shows after a scan, a typed code or a click in the search. */
export type CheckInAnswer =
  | {
      kind: "checked_in";
      person: string;
      number: number | null;
      paidCents: number;
      at: string;
      /** issue 36: the show-up deposit this check-in refunds (0: none) */
      depositCents: number;
    }
  | { kind: "already"; person: string; number: number | null; at: string; by: string }
  | { kind: "void"; person: string; number: number | null; reason: string }
  | { kind: "wrong_event" }
  | { kind: "unknown"; message: string };

export const CHECK_IN_TEXT = {
  unknownCode: "No ticket with this code at this event.",
  unknownTicket: "This is not a PactNexus ticket.",
  unknownNumber: "No attendee with this number has a ticket at this event.",
  tooMany: (s: string) => `Too many codes typed at this event. Try again in ${s}.`,
};

/** Typed codes per event and minute: several doors at full speed, far from enumerating 31^8 codes. */
export const CODE_LOOKUPS_PER_MINUTE = 120;

const campaignSelect = {
  id: true,
  title: true,
  creatorId: true,
  status: true,
  goal: true,
  committedCount: true,
  pactType: true,
  raisedCents: true,
  goAheadAt: true,
  attendeesAnonymous: true,
  identityRevelationType: true,
  deadline: true,
  startsAt: true,
  timeZone: true,
  depositCents: true,
} satisfies Prisma.CampaignSelect;
type DoorCampaign = Prisma.CampaignGetPayload<{ select: typeof campaignSelect }>;

export type Door = { campaign: DoorCampaign; role: DoorRole; actor: NonNullable<DoorActor> };

/** The door of `campaignId` for `actor`, or FORBIDDEN/NOT_FOUND: the one authorization check. */
export async function openDoor(actor: DoorActor, campaignId: string): Promise<Door> {
  const campaign = isRowId(campaignId)
    ? await db.campaign.findUnique({ where: { id: campaignId }, select: campaignSelect })
    : null;
  if (!campaign) throw new AppError("NOT_FOUND", "Unknown event.");
  const role = await doorRoleOf(actor, campaign);
  if (!role || !actor) throw new AppError("FORBIDDEN", DOOR_TEXT.denied);
  return { campaign, role, actor };
}

const facts = (c: DoorCampaign): IdentityFacts => ({ ...c, pactType: c.pactType ?? null });

const rowSelect = {
  id: true,
  code: true,
  campaignId: true,
  pledge: {
    select: {
      id: true,
      userId: true,
      attendeeNumber: true,
      amountCents: true,
      chargeType: true,
      standing: true,
      chargeStatus: true,
      refundedAt: true,
      user: { select: { name: true, email: true } },
    },
  },
} satisfies Prisma.TicketSelect;
type Row = Prisma.TicketGetPayload<{ select: typeof rowSelect }>;

/** The attendee as this door person may see them (the privacy presenter decides, never this file). */
export function personAtDoor(door: Door, row: Row, now = new Date()) {
  const n = row.pledge.attendeeNumber ?? 0;
  const shown = presentIdentity(
    door.actor,
    facts(door.campaign),
    now,
    {
      key: row.pledge.id,
      userId: row.pledge.userId,
      name: row.pledge.user.name,
      email: row.pledge.user.email,
    },
    { hidden: anonymousAttendee(n), unnamed: numberedAttendee(n) },
  );
  return { person: shown.label, number: row.pledge.attendeeNumber };
}

export function voidText(door: Door, row: Row): string | null {
  const p = row.pledge;
  const reason = ticketVoidReason({
    standing: isStanding(p.standing) ? p.standing : "withdrawn",
    chargeStatus: p.chargeStatus,
    refundedAt: p.refundedAt,
    campaignStatus: door.campaign.status,
  });
  return reason ? TICKET_VOID_TEXT[reason] : null;
}

/**
 * "the organizer", or the door helper's name; their email only to the organizer (who invited them by
 * it) and to themselves — another door helper reads "a door helper".
 */
async function checkerLabel(door: Door, userId: string): Promise<string> {
  if (userId === door.campaign.creatorId) return "the organizer";
  const u = await db.user.findUnique({ where: { id: userId }, select: { name: true, email: true } });
  const seesEmail = door.role === "organizer" || userId === door.actor.id;
  return u?.name?.trim() || (seesEmail ? u?.email : null) || "a door helper";
}

const checkInSchema = z.union([
  z.object({ token: z.string().min(1).max(200) }).strict(),
  z.object({ code: z.string().min(1).max(40) }).strict(),
  z.object({ number: z.coerce.number().int().min(1).max(10_000_000) }).strict(),
]);
export type CheckInInput = z.infer<typeof checkInSchema>;

const consumeCodeLookup = (campaignId: string) =>
  consume(
    { key: `checkin-code:event:${campaignId}`, limit: CODE_LOOKUPS_PER_MINUTE, windowMs: 60_000 },
    (ms) => CHECK_IN_TEXT.tooMany(secondsText(ms)),
  );

/** The ticket the input names at this event, or the answer to give instead. */
async function findTicket(door: Door, input: CheckInInput): Promise<Row | CheckInAnswer> {
  const campaignId = door.campaign.id;
  if ("token" in input) {
    const t = await ticketByToken(input.token.trim());
    if (!t) return { kind: "unknown", message: CHECK_IN_TEXT.unknownTicket };
    if (t.campaignId !== campaignId) return { kind: "wrong_event" };
    return db.ticket.findUniqueOrThrow({ where: { id: t.ticketId }, select: rowSelect });
  }
  if ("code" in input) {
    await consumeCodeLookup(campaignId);
    const code = normalizeTicketCode(input.code);
    const t = code
      ? await db.ticket.findUnique({ where: { campaignId_code: { campaignId, code } }, select: rowSelect })
      : null;
    return t ?? { kind: "unknown", message: CHECK_IN_TEXT.unknownCode };
  }
  await issueTickets(db, campaignId);
  const rows = await db.ticket.findMany({
    where: { campaignId, pledge: { attendeeNumber: input.number } },
    select: rowSelect,
  });
  return (
    rows.find((r) => !voidText(door, r)) ??
    rows[0] ?? { kind: "unknown", message: CHECK_IN_TEXT.unknownNumber }
  );
}

/**
 * Checks in the ticket named by a scanned token, a typed code or an attendee number, at `campaignId`,
 * for the organizer or a door helper. Exactly once under concurrency (INSERT … ON CONFLICT DO NOTHING
 * on the unique ticket id).
 */
export async function checkIn(actor: DoorActor, campaignId: string, raw: unknown): Promise<CheckInAnswer> {
  const door = await openDoor(actor, campaignId);
  const input = parseInput(checkInSchema, raw, {
    message: "Scan a ticket, or type its code or an attendee number.",
  });
  const found = await findTicket(door, input);
  if ("kind" in found) return found;
  const who = personAtDoor(door, found);
  const reason = voidText(door, found);
  if (reason) return { kind: "void", ...who, reason };
  const { count } = await db.checkIn.createMany({
    data: [{ ticketId: found.id, campaignId, byUserId: door.actor.id }],
    skipDuplicates: true,
  });
  const row = await db.checkIn.findUniqueOrThrow({ where: { ticketId: found.id } });
  if (count === 1) {
    // issue 36: a show-up deposit goes back now, once (its refund row's key), not holding up the door;
    // should this process die first, the refund sweeper finishes it within a minute
    void refundOwedDeposits({ pledgeId: found.pledge.id }).catch((err: Error) =>
      console.warn(`[check-in] deposit refund of ${found.pledge.id} left to the sweeper: ${err.message}`),
    );
    const paidCents = found.pledge.chargeType === "free" ? 0 : found.pledge.amountCents;
    const depositCents = found.pledge.chargeType === "paid" ? door.campaign.depositCents : 0;
    return { kind: "checked_in", ...who, paidCents, at: row.at.toISOString(), depositCents };
  }
  return { kind: "already", ...who, at: row.at.toISOString(), by: await checkerLabel(door, row.byUserId) };
}

/** Every ticket of the event with its check-in (the counts and the search read these). */
async function doorRows(door: Door) {
  await issueTickets(db, door.campaign.id);
  const rows = await db.ticket.findMany({
    where: { campaignId: door.campaign.id },
    select: rowSelect,
    orderBy: { pledge: { attendeeNumber: "asc" } },
  });
  const checks = await db.checkIn.findMany({
    where: { campaignId: door.campaign.id },
    select: { ticketId: true, at: true },
  });
  const at = new Map(checks.map((c) => [c.ticketId, c.at]));
  return rows.map((r) => ({ row: r, void: voidText(door, r), checkedInAt: at.get(r.id) ?? null }));
}

/** Checked in of expected: the event's tickets that admit (a void ticket is not expected). */
export function countsOf(rows: { void: string | null; checkedInAt: Date | null }[]) {
  const admitting = rows.filter((r) => !r.void);
  return { checkedIn: admitting.filter((r) => r.checkedInAt).length, expected: admitting.length };
}

/** The counts for the organizer's manage page (null for anyone who may not open the door). */
export async function doorCountsFor(actor: DoorActor, campaignId: string) {
  const door = await openDoor(actor, campaignId).catch(() => null);
  return door ? countsOf(await doorRows(door)) : null;
}

/** One row of the door's search, as this door person may see it. */
export type DoorSearchRow = {
  person: string;
  number: number | null;
  checkedInAt: string | null;
  void: string | null;
};

const SEARCH_LIMIT = 20;

/**
 * The door's search. The organizer finds people by name, email or attendee number; a door helper by
 * attendee number or ticket code only (a name the event hides must not be findable by them either).
 */
export async function searchAtDoor(
  actor: DoorActor,
  campaignId: string,
  rawQuery: string,
): Promise<{ rows: DoorSearchRow[]; counts: { checkedIn: number; expected: number } }> {
  const door = await openDoor(actor, campaignId);
  const all = await doorRows(door);
  const q = String(rawQuery ?? "")
    .trim()
    .toLowerCase()
    .replace(/^#/, "")
    .slice(0, 80);
  const code = normalizeTicketCode(q);
  const number = /^\d{1,7}$/.test(q) ? Number(q) : null;
  const hit = (r: Row) => {
    if (number !== null && r.pledge.attendeeNumber === number) return true;
    if (code && r.code === code) return true;
    if (door.role !== "organizer" || q.length < 2) return false;
    const name = r.pledge.user.name?.toLowerCase() ?? "";
    return name.includes(q) || r.pledge.user.email.toLowerCase().includes(q);
  };
  if (code) await consumeCodeLookup(campaignId);
  const found = q ? all.filter((r) => hit(r.row)) : [];
  const rows = found.slice(0, SEARCH_LIMIT).map((r) => ({
    ...personAtDoor(door, r.row),
    checkedInAt: r.checkedInAt?.toISOString() ?? null,
    void: r.void,
  }));
  return { rows, counts: countsOf(all) };
}

/** When each place of the event was checked in, by pledge id (the organizer's CSV). */
export async function checkInTimesOf(campaignId: string): Promise<Map<string, Date>> {
  const rows = await db.$queryRaw<{ pledgeId: string; at: Date }[]>`
    SELECT t."pledgeId", ci.at FROM "CheckIn" ci JOIN "Ticket" t ON t.id = ci."ticketId"
    WHERE ci."campaignId" = ${campaignId}`;
  return new Map(rows.map((r) => [r.pledgeId, r.at]));
}
