import "server-only";
import { randomBytes } from "node:crypto";
import { Prisma } from "@/lib/db";
import { env } from "@/lib/env";

/** How commits queue per app instance, and the helpers of their raw statements. */
/**
 * Commits to one campaign run one at a time per app instance. The row lock serialises them anyway
 * (and still does across instances); queuing here, in memory, keeps a burst on one popular event
 * from parking every pooled connection on that lock, which starved other requests and made commits
 * fail with pool timeouts (seen with 200 concurrent commits on a 10-connection pool).
 */
const commitQueues = new Map<string, Promise<unknown>>();
export function oneAtATime<T>(key: string, fn: () => Promise<T>): Promise<T> {
  const previous = commitQueues.get(key) ?? Promise.resolve();
  const run = previous.then(fn, fn);
  const tail = run.then(
    () => undefined,
    () => undefined,
  );
  commitQueues.set(key, tail);
  void tail.then(() => {
    if (commitQueues.get(key) === tail) commitQueues.delete(key);
  });
  return run;
}

/** A commit waiting in its event's group (inGroups), and how to answer it. */
export type Waiting<E, R> = { entry: E; resolve: (r: R) => void; reject: (e: unknown) => void };

/** At most this many commits of one event are written together. */
const MAX_GROUP = 100;
const groups = new Map<string, Waiting<unknown, unknown>[]>();

/**
 * Group commit (issue 32): like oneAtATime, the commits to one event run one group at a time per
 * instance, but everything that queued while a group was being written is handed to `run` together,
 * in arrival order. `run` answers a prefix of them (at least the first) and returns its length; the
 * rest form the next group with later arrivals. A commit that finds its event idle starts at once, a
 * group of one.
 */
export function inGroups<E, R>(
  key: string,
  entry: E,
  run: (group: Waiting<E, R>[]) => Promise<number>,
): Promise<R> {
  return new Promise<R>((resolve, reject) => {
    const waiting = groups.get(key) as Waiting<E, R>[] | undefined;
    const mine = { entry, resolve, reject };
    if (waiting) return void waiting.push(mine);
    const queue: Waiting<E, R>[] = [mine];
    groups.set(key, queue as Waiting<unknown, unknown>[]);
    void drain(key, queue, run);
  });
}

async function drain<E, R>(
  key: string,
  queue: Waiting<E, R>[],
  run: (group: Waiting<E, R>[]) => Promise<number>,
) {
  while (queue.length > 0) {
    const group = queue.slice(0, MAX_GROUP);
    let answered = 1;
    try {
      // the event's other moves (withdraw, waitlist) still queue with its commits, as before
      answered = Math.max(1, await oneAtATime(key, () => run(group)));
    } catch (err) {
      group[0]!.reject(err); // a settled promise ignores it
    }
    queue.splice(0, answered);
  }
  groups.delete(key);
}

/**
 * At most this many commits per instance do their reads before the write (rate limit; for a paid
 * commit also campaign, existing pledge, card check) at once; the rest wait in memory. Without it, 200 simultaneous
 * commits queued hundreds of queries on the 10-connection pool and some failed with the pool's
 * connect timeout on a busy machine, and page views starved meanwhile.
 */
// read on first use, not at import: `next build` imports this module without the runtime's environment
const commitSlots = () => Math.max(2, Math.floor(env().DATABASE_POOL_SIZE / 2));
let slotsInUse = 0;
const slotWaiters: Array<() => void> = [];
export async function withCommitSlot<T>(fn: () => Promise<T>): Promise<T> {
  if (slotsInUse >= commitSlots()) await new Promise<void>((resolve) => slotWaiters.push(resolve));
  else slotsInUse++;
  try {
    return await fn();
  } finally {
    // Hand the slot straight to the next waiter (slotsInUse unchanged), or free it.
    const next = slotWaiters.shift();
    if (next) next();
    else slotsInUse--;
  }
}

export const isUniqueViolation = (e: unknown) =>
  (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") ||
  /23505|Unique constraint/i.test(String((e as Error)?.message));

/**
 * A new row id in the shape of Prisma's cuid() (25 lowercase letters and digits, a time prefix then
 * randomness), for the raw inserts below, which Prisma's client-side id default does not reach.
 */
export function newId(): string {
  const bytes = randomBytes(15);
  let rand = "";
  for (const b of bytes) rand += (b % 36).toString(36);
  return `c${Date.now().toString(36).padStart(9, "0")}${rand}`;
}
