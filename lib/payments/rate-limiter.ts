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

/** A lease is what a crashed holder blocks its slot for: far longer than any provider call. */
const LEASE_MS = 60_000;

export type ProviderSlot = { takenAt: Date; release: () => Promise<void> };

/**
 * Waits until a slot is free and takes it for the duration of one call. While the call runs the
 * slot is leased (usedAt in the future); `release` stamps it with the time the call ENDED. A slot is
 * only reused a full window after its previous call ended, so even at the provider — where a request
 * arrives some time after the slot was taken — no window holds more than `limit` requests.
 */
export async function acquireProviderSlot(key: string, limit: number, windowMs = 1000): Promise<ProviderSlot> {
  await ensureSlots(key, limit);
  const windowText = `${windowMs} milliseconds`;
  const leaseText = `${LEASE_MS} milliseconds`;
  for (;;) {
    const taken = await db.$queryRaw<{ slot: number; takenAt: Date; lease: Date }[]>`
      UPDATE "ProviderRateSlot" AS s SET "usedAt" = clock_timestamp() + ${leaseText}::interval
      FROM (
        SELECT "key", "slot" FROM "ProviderRateSlot"
        WHERE "key" = ${key} AND "slot" < ${limit}
          AND ("usedAt" IS NULL OR "usedAt" <= clock_timestamp() - ${windowText}::interval)
        ORDER BY "usedAt" ASC NULLS FIRST
        LIMIT 1
        FOR UPDATE SKIP LOCKED
      ) AS free
      WHERE s."key" = free."key" AND s."slot" = free."slot"
      RETURNING s."slot", s."usedAt" - ${leaseText}::interval AS "takenAt", s."usedAt" AS "lease"`;
    if (taken.length > 0) {
      const { slot, takenAt, lease } = taken[0];
      let released = false;
      return {
        takenAt,
        release: async () => {
          if (released) return;
          released = true;
          await db.$executeRaw`
            UPDATE "ProviderRateSlot" SET "usedAt" = clock_timestamp()
            WHERE "key" = ${key} AND "slot" = ${slot} AND "usedAt" = ${lease}`;
        },
      };
    }
    // Every slot is in use or was used inside the window: wait until the earliest one frees up.
    const [next] = await db.$queryRaw<{ waitMs: number | null }[]>`
      SELECT (EXTRACT(EPOCH FROM (min("usedAt") + ${windowText}::interval - clock_timestamp())) * 1000)::float8 AS "waitMs"
      FROM "ProviderRateSlot" WHERE "key" = ${key} AND "slot" < ${limit}`;
    const wait = Math.max(5, Math.min(windowMs, Math.ceil(next?.waitMs ?? 20)));
    await sleep(wait + Math.floor(Math.random() * 10));
  }
}
