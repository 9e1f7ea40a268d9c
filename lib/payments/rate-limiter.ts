import "server-only";
import { databaseUrl } from "@/lib/env";
import { db, Prisma } from "@/lib/db";

/**
 * The payment provider's rate limiter, shared by every app instance through Postgres (table
 * ProviderRateSlot). It is a strict sliding window: a key has `limit` slots, and a call takes a
 * slot whose previous call ENDED more than `windowMs` ago, so no window of that length ever holds
 * more than `limit` calls at the provider, whatever the number of instances. Stripe's default is
 * 25 requests/s per operation in live mode (STRIPE_RATE_LIMIT). Slot rows are locked with SKIP
 * LOCKED, so concurrent callers never wait on each other's row locks, only on the clock.
 *
 * Within one process the callers of a key share one acquirer: it takes as many free slots as there
 * are callers waiting in one statement, and when none is free that same statement says how long
 * until the next one frees up, so the wait costs no extra round trip and eight waiting callers do
 * not poll eight times. Releases are written in batches too (see `release`).
 */
/** A lease is what a crashed holder blocks its slot for: far longer than any provider call. */
const LEASE_MS = 60_000;

type ProviderSlot = {
  takenAt: Date;
  /**
   * Ends the slot's call: call it as soon as the provider's answer is in. The slot is stamped with
   * the moment `release` was CALLED (the database clock at write time minus the time the write
   * waited here, so the stamp is never earlier than the call's end), and is reused a full window
   * after that. The returned promise settles once the stamp is written; a caller need not wait for
   * it — until it is written the slot stays leased, which only delays its reuse.
   */
  release: () => Promise<void>;
};

type Waiter = { resolve: (slot: ProviderSlot) => void; reject: (err: unknown) => void };
type PendingRelease = { slot: number; lease: Date; endedAt: number; done: () => void };
type TakenSlot = { slot: number; lease: Date };
type Pool = {
  key: string;
  limit: number;
  windowMs: number;
  ensured: boolean;
  waiters: Waiter[];
  pumping: boolean;
  /** recent round trip of the take statement (ms, smoothed) */
  rtt: number;
  /** wakes the acquirer's sleep early: a slot of this process was released */
  wake: (() => void) | null;
  releases: PendingRelease[];
  flushing: boolean;
};

const pools = new Map<string, Pool>();

function poolFor(key: string, limit: number, windowMs: number): Pool {
  // Per database too: tests point DATABASE_URL at a fresh database per file.
  const id = `${databaseUrl()}|${key}|${limit}|${windowMs}`;
  let pool = pools.get(id);
  if (!pool) {
    pool = {
      key,
      limit,
      windowMs,
      ensured: false,
      waiters: [],
      pumping: false,
      rtt: 0,
      wake: null,
      releases: [],
      flushing: false,
    };
    pools.set(id, pool);
  }
  return pool;
}

async function ensureSlots(pool: Pool) {
  if (pool.ensured) return;
  await db.$executeRaw`
    INSERT INTO "ProviderRateSlot" ("key", "slot", "usedAt")
    SELECT ${pool.key}, s, NULL FROM generate_series(0, ${pool.limit}::int - 1) AS s
    ON CONFLICT DO NOTHING`;
  pool.ensured = true;
}

/**
 * One statement: takes up to `want` free slots (leased: usedAt in the future) and, when it got
 * fewer, also returns how long until the earliest of the other slots frees up.
 */
async function takeSlots(pool: Pool, want: number): Promise<{ taken: TakenSlot[]; waitMs: number | null }> {
  const windowText = `${pool.windowMs} milliseconds`;
  const leaseText = `${LEASE_MS} milliseconds`;
  const rows = await db.$queryRaw<{ slot: number | null; lease: Date | null; waitMs: number | null }[]>`
    WITH free AS (
      SELECT "key", "slot" FROM "ProviderRateSlot"
      WHERE "key" = ${pool.key} AND "slot" < ${pool.limit}
        AND ("usedAt" IS NULL OR "usedAt" <= clock_timestamp() - ${windowText}::interval)
      ORDER BY "usedAt" ASC NULLS FIRST
      LIMIT ${want}
      FOR UPDATE SKIP LOCKED
    ), taken AS (
      UPDATE "ProviderRateSlot" AS s SET "usedAt" = clock_timestamp() + ${leaseText}::interval
      FROM free WHERE s."key" = free."key" AND s."slot" = free."slot"
      RETURNING s."slot", s."usedAt" AS "lease"
    )
    SELECT "slot", "lease", NULL::float8 AS "waitMs" FROM taken
    UNION ALL
    SELECT NULL, NULL, (EXTRACT(EPOCH FROM (min("usedAt") + ${windowText}::interval - clock_timestamp())) * 1000)::float8
    FROM "ProviderRateSlot"
    WHERE "key" = ${pool.key} AND "slot" < ${pool.limit} AND "slot" NOT IN (SELECT "slot" FROM taken)
    HAVING (SELECT count(*) FROM taken) < ${want}`;
  const taken: TakenSlot[] = [];
  let waitMs: number | null = null;
  for (const r of rows) {
    if (r.slot !== null && r.lease) taken.push({ slot: r.slot, lease: r.lease });
    else waitMs = r.waitMs;
  }
  return { taken, waitMs };
}

function makeSlot(pool: Pool, slot: number, lease: Date): ProviderSlot {
  let released: Promise<void> | null = null;
  return {
    takenAt: new Date(lease.getTime() - LEASE_MS),
    release: () => {
      released ??= new Promise<void>((done) => {
        pool.releases.push({ slot, lease, endedAt: performance.now(), done });
        void flushReleases(pool);
      });
      return released;
    },
  };
}

/**
 * Writes the pending releases in one statement. Each slot is stamped with the database clock at
 * write time minus how long its release waited in this process (measured on the monotonic clock,
 * taken before the statement is sent, so the stamp can only be later than the call's true end):
 * batching never makes a slot reusable earlier, and waiting for a batch does not make it later. A
 * release that cannot be written (database trouble) leaves the slot leased until the lease ends,
 * which is the safe side.
 */
async function flushReleases(pool: Pool) {
  if (pool.flushing) return;
  pool.flushing = true;
  try {
    while (pool.releases.length > 0) {
      const batch = pool.releases.splice(0, 500);
      const now = performance.now();
      const rows = batch.map(
        (r) => Prisma.sql`(${r.slot}::int, ${r.lease}::timestamptz, ${Math.max(0, now - r.endedAt)}::float8)`,
      );
      try {
        await db.$executeRaw`
          UPDATE "ProviderRateSlot" AS s SET "usedAt" = clock_timestamp() - v."ago" * interval '1 millisecond'
          FROM (VALUES ${Prisma.join(rows)}) AS v("slot", "lease", "ago")
          WHERE s."key" = ${pool.key} AND s."slot" = v."slot" AND s."usedAt" = v."lease"`;
      } catch (err) {
        console.warn(
          `[rate-limiter] ${batch.length} slot release(s) of "${pool.key}" not written; they stay leased: ${(err as Error).message}`,
        );
      }
      for (const r of batch) r.done();
      pool.wake?.();
    }
  } finally {
    pool.flushing = false;
  }
}

/** Hands free slots to this process's waiting callers, oldest first, until none is waiting. */
async function pump(pool: Pool) {
  if (pool.pumping) return;
  pool.pumping = true;
  try {
    await ensureSlots(pool);
    while (pool.waiters.length > 0) {
      const want = pool.waiters.length;
      const sent = performance.now();
      const { taken, waitMs } = await takeSlots(pool, want);
      const rtt = performance.now() - sent;
      pool.rtt = pool.rtt === 0 ? rtt : pool.rtt * 0.8 + rtt * 0.2;
      for (const t of taken) pool.waiters.shift()!.resolve(makeSlot(pool, t.slot, t.lease));
      if (taken.length >= want || pool.waiters.length === 0) continue;
      // Every slot is in use or was used inside the window: sleep until the earliest frees up. The
      // wait was measured at the database, half a round trip ago, and the next statement reaches it
      // half a round trip after it is sent: so it is sent one round trip early, to arrive as the
      // slot frees up (arriving a little early only costs another try). When the earliest slot is
      // still leased by a running call, its end is unknown: sleep at most a window, and let a
      // release in this process wake us to recompute. A little jitter keeps instances sharing the
      // key from asking in lockstep.
      const known = waitMs !== null && waitMs <= pool.windowMs;
      const early = known ? Math.min(pool.rtt, 50) : 0;
      const wait =
        Math.max(1, Math.min(pool.windowMs, Math.ceil((waitMs ?? 20) - early))) +
        Math.floor(Math.random() * 3);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, wait);
        if (!known) {
          pool.wake = () => {
            clearTimeout(timer);
            resolve();
          };
        }
      });
      pool.wake = null;
    }
  } catch (err) {
    // The database failed the acquisition: every caller waiting now gets the error.
    for (const w of pool.waiters.splice(0)) w.reject(err);
  } finally {
    pool.pumping = false;
  }
  // A caller that arrived while the loop was ending.
  if (pool.waiters.length > 0) void pump(pool);
}

/**
 * Waits until a slot is free and takes it for the duration of one call. While the call runs the
 * slot is leased (usedAt in the future); `release` stamps it with the time the call ENDED. A slot is
 * only reused a full window after its previous call ended, so even at the provider — where a request
 * arrives some time after the slot was taken — no window holds more than `limit` requests.
 */
export function acquireProviderSlot(key: string, limit: number, windowMs = 1000): Promise<ProviderSlot> {
  const pool = poolFor(key, limit, windowMs);
  return new Promise<ProviderSlot>((resolve, reject) => {
    pool.waiters.push({ resolve, reject });
    void pump(pool);
  });
}
