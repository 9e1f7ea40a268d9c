import "server-only";
import { db, Prisma } from "@/lib/db";
import type { Actor } from "@/lib/access/rules";
import { canManageEvent } from "@/lib/access/rules";
import { isRowId } from "@/lib/ids";
import { formatCents } from "@/lib/format";
import { standsNow, type Standing } from "@/lib/events/standing";
import {
  depositKeptAt,
  depositKeptAtSql,
  depositOwedBackSql,
  depositState,
  type DepositFacts,
  type DepositState,
} from "@/lib/events/deposit";
import { seatMoneySql } from "@/lib/ledger/seat-money";

/**
 * The show-up deposit as the people surfaces tell it (issue 36 item 3, docs/decisions/show-up-deposit.md):
 * My commitments, the organizer's Deposits section and CSV column. The facts of many places are read
 * in one statement (the charge and refund rows, lib/events/deposit's owed-back and kept-at SQL); the
 * state is lib/events/deposit's `depositState`, never re-derived here.
 */

type FactsRow = {
  pledgeId: string;
  cents: number;
  charged: boolean;
  refunded: boolean;
  owedBack: boolean;
  checkedIn: boolean;
  keptAt: Date | null;
  attendeeNumber: number | null;
  name: string | null;
  email: string;
};

/** The deposit facts of the places named (by id, or every charged one of an event), at deposit events only. */
async function factRows(
  where: { pledgeIds: readonly string[] } | { campaignId: string },
): Promise<FactsRow[]> {
  // the deposits charged, per seat (lib/ledger/seat-money: a group's payment carries each seat's, issue 37)
  const money = seatMoneySql(
    "campaignId" in where ? { campaignId: where.campaignId } : { pledgeIds: where.pledgeIds },
  );
  const filter =
    "campaignId" in where
      ? Prisma.sql`p."campaignId" = ${where.campaignId} AND EXISTS (SELECT 1 FROM dm WHERE dm."pledgeId" = p."id")`
      : Prisma.sql`p."id" = ANY(${[...where.pledgeIds]}::text[])`;
  return db.$queryRaw<FactsRow[]>`
    WITH dm AS (
      SELECT m."pledgeId" FROM ${money} m WHERE m."kind" = 'charge' AND m."purpose" = 'deposit' AND m."state" = 'succeeded'
    )
    SELECT p."id" AS "pledgeId", c."depositCents" AS cents,
      EXISTS (SELECT 1 FROM dm WHERE dm."pledgeId" = p."id") AS charged,
      EXISTS (SELECT 1 FROM "MoneyMovement" r WHERE r."pledgeId" = p."id" AND r."kind" = 'refund'
        AND r."purpose" = 'deposit' AND r."state" = 'succeeded') AS refunded,
      ${Prisma.raw(depositOwedBackSql("p", "c"))} AS "owedBack",
      EXISTS (SELECT 1 FROM "Ticket" t JOIN "CheckIn" ci ON ci."ticketId" = t."id" WHERE t."pledgeId" = p."id") AS "checkedIn",
      ${Prisma.raw(depositKeptAtSql("c"))} AS "keptAt",
      p."attendeeNumber", u."name", u."email"
    FROM "Pledge" p JOIN "Campaign" c ON c."id" = p."campaignId" JOIN "User" u ON u."id" = p."userId"
    WHERE c."depositCents" > 0 AND ${filter}
    ORDER BY p."attendeeNumber" ASC NULLS LAST, p."id"`;
}

const factsOf = (r: FactsRow): DepositFacts => ({
  charged: r.charged,
  refunded: r.refunded,
  owedBack: r.owedBack,
  keptAt: r.keptAt,
});

/** A place's deposit as its backer reads it on My commitments. */
export type DepositLine = {
  state: DepositState;
  /** "$10.00 deposit held until you check in", "… refunded", "… kept: you did not check in" */
  text: string;
  /** held: when it is kept unless they check in (ISO; the page shows it in the viewer's zone) */
  keptAt: string | null;
  /** issue 37: a holder's guest seats' deposits, "Your guests' $10.00 deposits: 1 refunded, 1 held until they check in" */
  guests?: string;
  /** the words before that time */
  keptAtLabel: string;
};

export const DEPOSIT_TEXTS = {
  none: (amount: string) =>
    `${amount} show-up deposit, charged if the event goes ahead and refunded when you check in`,
  held: (amount: string) => `${amount} deposit held until you check in`,
  heldUntil: "Kept if you have not checked in by",
  refunding: (amount: string) => `${amount} deposit being refunded`,
  refunded: (amount: string) => `${amount} deposit refunded`,
  kept: (amount: string) => `${amount} deposit kept: you did not check in`,
  guests: (amount: string, states: string) => `Your guests' ${amount} deposits: ${states}`,
} as const;

/** A guest seat's deposit in the holder's words, in this order. */
const GUEST_WORDS: [Exclude<DepositState, "none">, string][] = [
  ["held", "held until they check in"],
  ["refunding", "being refunded"],
  ["refunded", "refunded"],
  ["kept", "kept"],
];

/**
 * Issue 37: the deposits of the guest seats each holder still holds (a claimed seat is its friend's),
 * by group (the holder's own seat's id), in one line: "Your guests' $10.00 deposits: 1 refunded, 1 held
 * until they check in". Each seat's state is its own (lib/events/deposit), read in one query.
 */
async function guestLinesOf(
  holders: readonly { id: string; userId: string }[],
  now: Date,
): Promise<Map<string, string>> {
  const out = new Map<string, string>();
  if (holders.length === 0) return out;
  const holderOf = new Map(holders.map((h) => [h.id, h.userId]));
  const guests = (
    await db.pledge.findMany({
      where: { groupId: { in: [...holderOf.keys()] }, guestSlot: { gt: 0 } },
      select: { id: true, groupId: true, userId: true },
    })
  ).filter((g) => g.groupId !== null && holderOf.get(g.groupId) === g.userId);
  if (guests.length === 0) return out;
  const groupOf = new Map(guests.map((g) => [g.id, g.groupId!]));
  const byGroup = new Map<string, { cents: number; counts: Map<DepositState, number> }>();
  for (const r of await factRows({ pledgeIds: guests.map((g) => g.id) })) {
    const state = depositState(factsOf(r), now);
    if (state === "none") continue;
    const group = groupOf.get(r.pledgeId)!;
    const g = byGroup.get(group) ?? { cents: r.cents, counts: new Map<DepositState, number>() };
    g.counts.set(state, (g.counts.get(state) ?? 0) + 1);
    byGroup.set(group, g);
  }
  for (const [group, g] of byGroup) {
    const states = GUEST_WORDS.filter(([s]) => g.counts.has(s)).map(
      ([s, words]) => `${g.counts.get(s)} ${words}`,
    );
    out.set(group, DEPOSIT_TEXTS.guests(formatCents(g.cents), states.join(", ")));
  }
  return out;
}

/**
 * The deposit lines of the backer's places, by pledge id, in one query (places at events without a
 * deposit have none). A deposit not charged yet is announced only on a place that still stands.
 */
export async function depositLinesOf(
  places: readonly { id: string; standing: Standing; groupId?: string | null; userId?: string }[],
  now = new Date(),
): Promise<Map<string, DepositLine>> {
  const out = new Map<string, DepositLine>();
  if (places.length === 0) return out;
  const standing = new Set(places.filter((p) => standsNow(p.standing)).map((p) => p.id));
  // issue 37: a holder's own place (its id is its group's) carries its guest seats' deposits too
  const holders = places.flatMap((p) =>
    p.groupId === p.id && p.userId ? [{ id: p.id, userId: p.userId }] : [],
  );
  const guests = await guestLinesOf(holders, now);
  for (const r of await factRows({ pledgeIds: places.map((p) => p.id) })) {
    const state = depositState(factsOf(r), now);
    if (state === "none" && !standing.has(r.pledgeId)) continue;
    out.set(r.pledgeId, {
      state,
      text: DEPOSIT_TEXTS[state](formatCents(r.cents)),
      keptAt: state === "held" && r.keptAt ? r.keptAt.toISOString() : null,
      keptAtLabel: DEPOSIT_TEXTS.heldUntil,
      ...(guests.has(r.pledgeId) ? { guests: guests.get(r.pledgeId) } : {}),
    });
  }
  return out;
}

/** The organizer's CSV words for a deposit: held, refunding, refunded, kept, or — for none. */
export const DEPOSIT_CSV_WORDS: Record<DepositState, string> = {
  none: "—",
  held: "held",
  refunding: "refunding",
  refunded: "refunded",
  kept: "kept",
};

/** The deposit state of every given place of an event (for the CSV), by pledge id. */
export async function depositStatesOf(
  pledgeIds: readonly string[],
  now = new Date(),
): Promise<Map<string, DepositState>> {
  if (pledgeIds.length === 0) return new Map();
  const rows = await factRows({ pledgeIds });
  return new Map(rows.map((r) => [r.pledgeId, depositState(factsOf(r), now)]));
}

/** One charged deposit on the organizer's Deposits section. */
export type DepositAttendee = {
  pledgeId: string;
  /** "Attendee #4" (the door's number), and the name the organizer always sees */
  label: string;
  name: string;
  state: DepositState;
  /** the organizer may excuse them now: charged, not checked in, owed back by nothing, not kept yet */
  excusable: boolean;
};

export type DepositRoster = {
  cents: number;
  /** when deposits not checked in are kept (ISO), in the event's zone `zone` */
  keptAt: string | null;
  zone: string;
  /** the grace is not over yet: an organizer may still excuse */
  open: boolean;
  /** charged deposits by the payout ledger's words: held (owed back or waiting), refunded, kept */
  counts: { held: number; refunded: number; kept: number };
  /** the charged deposits not checked in, by attendee number */
  notCheckedIn: DepositAttendee[];
};

/**
 * The organizer's Deposits section (manage page): the deposit, when it is kept, and who has not
 * checked in, with whether each may still be excused (lib/pledges/excuse decides again on the click).
 * Null for an event without a deposit, or for anyone but its organizer.
 */
export async function depositRosterOf(
  actor: Actor,
  campaignId: string,
  now = new Date(),
): Promise<DepositRoster | null> {
  if (!actor || !isRowId(campaignId)) return null;
  const c = await db.campaign.findUnique({
    where: { id: campaignId },
    select: {
      creatorId: true,
      depositCents: true,
      depositGraceHours: true,
      startsAt: true,
      endsAt: true,
      timeZone: true,
    },
  });
  if (!c || c.depositCents <= 0 || !canManageEvent(actor, c)) return null;
  const keptAt = depositKeptAt(c);
  const open = keptAt !== null && now < keptAt;
  const rows = (await factRows({ campaignId })).map((r) => ({ ...r, state: depositState(factsOf(r), now) }));
  const count = (...states: DepositState[]) => rows.filter((r) => states.includes(r.state)).length;
  return {
    cents: c.depositCents,
    keptAt: keptAt?.toISOString() ?? null,
    zone: c.timeZone,
    open,
    counts: { held: count("held", "refunding"), refunded: count("refunded"), kept: count("kept") },
    notCheckedIn: rows
      .filter((r) => !r.checkedIn)
      .map((r) => {
        const name = r.name?.trim() || r.email;
        return {
          pledgeId: r.pledgeId,
          label: r.attendeeNumber ? `Attendee #${r.attendeeNumber}` : name,
          name,
          state: r.state,
          excusable: open && r.state === "held",
        };
      }),
  };
}
