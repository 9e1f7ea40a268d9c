import "server-only";
import { db } from "@/lib/db";

/**
 * The payment provider's rate limiter, shared by every app instance through Postgres (table
 * ProviderRateSlot). It is a strict sliding window: a key has `limit` slots, and a call takes a
 * slot whose last use is more than `windowMs` ago, so no window of that length ever holds more than
 * `limit` calls, whatever the number of instances. Stripe's default is 25 requests/s per operation
 * in live mode (STRIPE_RATE_LIMIT). Slot rows are locked with SKIP LOCKED, so concurrent callers
 * never wait on each other's row locks, only on the clock.
 */
const ensured = new Set<string>();

async function ensureSlots(key: string, limit: number) {
  const id = `${process.env.DATABASE_URL}|${key}|${limit}`;
  if (ensured.has(id)) return;
  await db.$executeRaw`
    INSERT INTO "ProviderRateSlot" ("key", "slot", "usedAt")
    SELECT ${key}, s, NULL FROM generate_series(0, ${limit}::int - 1) AS s
    ON CONFLICT DO NOTHING`;
  ensured.add(id);
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Waits until a slot is free and takes it. Returns the database time at which the slot was taken
 * (the instant the window counts).
 */
export async function acquireProviderSlot(key: string, limit: number, windowMs = 1000): Promise<Date> {
  await ensureSlots(key, limit);
  const windowText = `${windowMs} milliseconds`;
  for (;;) {
    const taken = await db.$queryRaw<{ usedAt: Date }[]>`
      UPDATE "ProviderRateSlot" AS s SET "usedAt" = clock_timestamp()
      FROM (
        SELECT "key", "slot" FROM "ProviderRateSlot"
        WHERE "key" = ${key} AND "slot" < ${limit}
          AND ("usedAt" IS NULL OR "usedAt" <= clock_timestamp() - ${windowText}::interval)
        ORDER BY "usedAt" ASC NULLS FIRST
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      ) AS free
      WHERE s."key" = free."key" AND s."slot" = free."slot"
      RETURNING s."usedAt"`;
    if (taken.length > 0) return taken[0].usedAt;
    // Every slot was used inside the window: wait until the oldest one leaves it.
    const [next] = await db.$queryRaw<{ waitMs: number | null }[]>`
      SELECT (EXTRACT(EPOCH FROM (min("usedAt") + ${windowText}::interval - clock_timestamp())) * 1000)::float8 AS "waitMs"
      FROM "ProviderRateSlot" WHERE "key" = ${key} AND "slot" < ${limit}`;
    const wait = Math.max(5, Math.min(windowMs, Math.ceil(next?.waitMs ?? 20)));
    await sleep(wait + Math.floor(Math.random() * 10));
  }
}
