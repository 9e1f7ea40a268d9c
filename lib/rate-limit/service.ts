import "server-only";
import { rateLimitsDisabled } from "@/lib/env";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";

/**
 * Sliding-window limits kept in Postgres (table RateLimitHit), so they hold across app instances
 * and restarts. A key names who and what ("signin-fail:email:a@b.c", "comment:user:<id>").
 */
type Limit = { key: string; limit: number; windowMs: number };

/** Hits for `key` inside the window, and when the oldest of them leaves it. */
export async function countHits(
  key: string,
  windowMs: number,
): Promise<{ count: number; retryAfterMs: number }> {
  const since = new Date(Date.now() - windowMs);
  const rows = await db.rateLimitHit.findMany({
    where: { key, createdAt: { gt: since } },
    select: { createdAt: true },
    orderBy: { createdAt: "asc" },
  });
  const oldest = rows[0]?.createdAt.getTime();
  return { count: rows.length, retryAfterMs: oldest ? Math.max(0, oldest + windowMs - Date.now()) : 0 };
}

export async function recordHit(key: string): Promise<void> {
  await db.rateLimitHit.create({ data: { key } });
}

/** Whether any of `limits` is already used up (without counting a new hit). */
export async function checkLimits(limits: Limit[]): Promise<{ ok: boolean; retryAfterMs: number }> {
  if (rateLimitsDisabled()) return { ok: true, retryAfterMs: 0 };
  let retryAfterMs = 0;
  let ok = true;
  for (const l of limits) {
    const { count, retryAfterMs: wait } = await countHits(l.key, l.windowMs);
    if (count >= l.limit) {
      ok = false;
      retryAfterMs = Math.max(retryAfterMs, wait);
    }
  }
  return { ok, retryAfterMs };
}

/**
 * Counts one action against `limit` and throws RATE_LIMITED with `message(minutes/seconds)` when
 * the window is full. A transaction-level advisory lock on the key makes check-and-record atomic,
 * so concurrent requests cannot all slip under the limit: the lock, then ONE statement that counts
 * the window and records the hit only if it is under the limit (its snapshot is taken after the lock,
 * so it sees every hit committed before). Issue 35 (commits/s): a batch of two statements instead of
 * an interactive transaction of four (lock, read every hit, insert) — every commit runs it.
 */
export async function consume(l: Limit, message: (retryAfterMs: number) => string): Promise<void> {
  if (rateLimitsDisabled()) return;
  const now = Date.now();
  const [, rows] = await db.$transaction([
    db.$executeRaw`SELECT pg_advisory_xact_lock(hashtext(${l.key}))`,
    db.$queryRaw<{ n: number; oldest: Date | null }[]>`
      WITH h AS (SELECT count(*)::int AS n, min("createdAt") AS oldest FROM "RateLimitHit"
                 WHERE key = ${l.key} AND "createdAt" > ${new Date(now - l.windowMs)}),
      i AS (INSERT INTO "RateLimitHit" (key, "createdAt") SELECT ${l.key}, ${new Date(now)} FROM h
            WHERE h.n < ${l.limit} RETURNING 1)
      SELECT n, oldest FROM h`,
  ]);
  const { n, oldest } = rows[0] ?? { n: 0, oldest: null };
  if (n >= l.limit) {
    const retryAfterMs = oldest ? Math.max(0, new Date(oldest).getTime() + l.windowMs - Date.now()) : 0;
    throw new AppError("RATE_LIMITED", message(retryAfterMs));
  }
}

/** How long a hit is kept: longer than any limit's window (the longest is an hour). */
export const HIT_RETENTION_MS = 24 * 3600_000;

/** Deletes hits older than HIT_RETENTION_MS (called by a periodic job). */
export async function pruneHits(olderThanMs = HIT_RETENTION_MS): Promise<number> {
  const { count } = await db.rateLimitHit.deleteMany({
    where: { createdAt: { lt: new Date(Date.now() - olderThanMs) } },
  });
  return count;
}

export const minutesText = (ms: number) => {
  const m = Math.max(1, Math.ceil(ms / 60_000));
  return `${m} minute${m === 1 ? "" : "s"}`;
};
export const secondsText = (ms: number) => {
  const s = Math.max(1, Math.ceil(ms / 1000));
  return `${s} second${s === 1 ? "" : "s"}`;
};
