/**
 * The show-up deposit (issue 36 item 3, docs/decisions/show-up-deposit.md): the one rule of which
 * events may take one, when it is kept, and what state a place's deposit is in. Every surface (the
 * event page, My commitments, the manage page, the payout ledger, the refund sweeper) asks here.
 *
 * - An event may take a deposit only with a start time and an in-person place (a venue or an address).
 * - It is charged at the tip in the same charge as the ticket, as its own money row (lib/ledger/deposits).
 * - It is owed back — refunded once, by a partial refund — when the ticket is checked in before the
 *   deposit is kept, when the organizer excuses the person within the grace, or when the place goes:
 *   withdrawn, dropped, given up (once whoever took it has paid, as the ticket's refund), or the event
 *   cancelled.
 * - It is kept once the event's end (its start when it has no end) plus the grace has passed with none
 *   of those: it then goes to the organizer's payout, less the platform fee.
 */

/** The bounds the create form and the database (Campaign_deposit_check) hold. */
export const DEPOSIT_MAX_CENTS = 50_000;
export const DEPOSIT_GRACE_DEFAULT_HOURS = 24;
export const DEPOSIT_GRACE_MAX_HOURS = 168;

type DepositEvent = { depositCents: number };
type DepositTimes = { startsAt: Date | null; endsAt: Date | null; depositGraceHours: number };

export const hasDeposit = (c: DepositEvent) => c.depositCents > 0;

/** Which events may take a deposit: a start time and an in-person place. */
export const depositAllowed = (c: { startsAt: Date | null; venue: string | null; address: string | null }) =>
  c.startsAt !== null && Boolean(c.venue?.trim() || c.address?.trim());

/** When a deposit not checked in, excused or released is kept: the event's end plus the grace. */
export function depositKeptAt(c: DepositTimes): Date | null {
  const end = c.endsAt ?? c.startsAt;
  return end ? new Date(end.getTime() + c.depositGraceHours * 3_600_000) : null;
}

/**
 * A place's deposit, as every surface says it:
 * - `none`: the event takes no deposit, or none was charged (not tipped, not paid yet);
 * - `held`: charged and held until check-in or the end of the grace;
 * - `refunding`: owed back (checked in, excused, released, cancelled), the refund not through yet;
 * - `refunded`: the refund went through;
 * - `kept`: the grace passed without a check-in or an excuse: the organizer keeps it.
 */
export type DepositState = "none" | "held" | "refunding" | "refunded" | "kept";

export type DepositFacts = {
  /** the deposit's charge went through */
  charged: boolean;
  /** its refund went through */
  refunded: boolean;
  /** checked in, excused or released (SQL: depositOwedBackSql) */
  owedBack: boolean;
  keptAt: Date | null;
};

export function depositState(f: DepositFacts, now = new Date()): DepositState {
  if (!f.charged) return "none";
  if (f.refunded) return "refunded";
  if (f.owedBack) return "refunding";
  if (f.keptAt && now >= f.keptAt) return "kept";
  return "held";
}

/**
 * SQL: whether the deposit of pledge `p` (at event `c`, both aliases of their tables) is owed back.
 * A check-in counts only if it was made before the deposit was kept; an excuse is only accepted
 * before then (lib/pledges/excuse.ts). The release rule is the ticket refund's (lib/ledger/refunds.ts).
 */
export const depositOwedBackSql = (p: string, c: string) => `(
  ${c}."status" = 'cancelled'
  OR ${p}."depositExcusedAt" IS NOT NULL
  OR (${p}."withdrawnAt" IS NOT NULL AND ${p}."gaveUpAt" IS NULL)
  OR (${p}."withdrawnAt" IS NOT NULL AND EXISTS (SELECT 1 FROM "Pledge" h WHERE h."id" = ${p}."handedToId" AND h."charged"))
  OR EXISTS (SELECT 1 FROM "Ticket" t JOIN "CheckIn" ci ON ci."ticketId" = t."id" WHERE t."pledgeId" = ${p}."id"
    AND ci."at" < COALESCE(${c}."endsAt", ${c}."startsAt") + make_interval(hours => ${c}."depositGraceHours"))
)`;

/** SQL: the moment the deposits of event `c` are kept (null without a start time). */
export const depositKeptAtSql = (c: string) =>
  `(COALESCE(${c}."endsAt", ${c}."startsAt") + make_interval(hours => ${c}."depositGraceHours"))`;
