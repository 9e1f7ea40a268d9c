import "server-only";
import { Prisma } from "@/lib/db";

/**
 * The door to an event (issue 32): the Campaign row lock is taken here and nowhere else in lib/
 * (npm run check:structure). Every transition of an event — a commit, a withdrawal, a promotion, the
 * tip, go-ahead, expiry, cancellation, a drop — runs inside the caller's transaction with this lock
 * held, so the counters, the status and the places change one transition at a time.
 *
 * Lock order (deadlock safety): callers take it where they always did — first thing in the
 * transaction, or right after reading the one pledge that names the event — and take other row
 * locks (pledges, payouts) only after it. One event per transaction, except withEvents (test events,
 * one statement, a fixed order).
 *
 * A hot event: the lock is held only for the transition's own statements. The common commit takes it
 * inside its one statement, compare-and-set on the row version (eventIfCurrentSql), so a commit costs
 * one round trip with the lock held for one statement; only a commit that tips, arrives late or keeps
 * losing the race takes it with withEvent and reads the row under it in the same statement (`read`).
 */

type Tx = Prisma.TransactionClient;

export type EventLockOptions = {
  /** the columns to read from the locked row, `c` being the campaign (default: `c.id`) */
  read?: Prisma.Sql;
  /** a further condition on the row (e.g. still pending): a row that fails it is not locked */
  when?: Prisma.Sql;
};

/**
 * Locks the event's row (SELECT … FOR UPDATE) inside `tx`, reading `read` from it in the same
 * statement, then runs `fn` with the row — null when there is no such event (or `when` does not
 * hold), and `fn` decides what that means.
 */
export async function withEvent<R, Row extends object = { id: string }>(
  tx: Tx,
  campaignId: string,
  fn: (row: Row | null) => Promise<R>,
  opts: EventLockOptions = {},
): Promise<R> {
  const rows = await tx.$queryRaw<Row[]>`
    SELECT ${opts.read ?? Prisma.sql`c.id`} FROM "Campaign" c
    WHERE c.id = ${campaignId} ${opts.when ? Prisma.sql`AND ${opts.when}` : Prisma.empty} FOR UPDATE`;
  return fn(rows[0] ?? null);
}

/**
 * Locks every event matching `where` in `orderBy` order, in one statement, then runs `fn` with
 * their rows (admin bulk work on test events: no commit or payout can land on them meanwhile).
 */
export async function withEvents<R, Row extends object = { id: string }>(
  tx: Tx,
  opts: { where: Prisma.Sql; orderBy: Prisma.Sql; read?: Prisma.Sql },
  fn: (rows: Row[]) => Promise<R>,
): Promise<R> {
  const rows = await tx.$queryRaw<Row[]>`
    SELECT ${opts.read ?? Prisma.sql`c.id`} FROM "Campaign" c
    WHERE ${opts.where} ORDER BY ${opts.orderBy} FOR UPDATE`;
  return fn(rows);
}

/**
 * A CTE body for a one-statement transition (the common commit): the event's row, locked only if it
 * is still the version the decision was made on (xmin; any update of the row moves it). Empty when
 * the row changed meanwhile: the statement then writes nothing, and the caller decides again.
 */
export const eventIfCurrentSql = (campaignId: string, version: string): Prisma.Sql =>
  Prisma.sql`SELECT id FROM "Campaign" WHERE id = ${campaignId} AND xmin::text = ${version} FOR UPDATE`;
