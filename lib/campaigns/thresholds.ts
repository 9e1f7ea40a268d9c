/**
 * The campaign core's rules on who counts (issues 21): personal thresholds — the members are the
 * largest set whose conditions all hold — and the early go-ahead. Pure and dependency-free like
 * lib/events/lifecycle.ts, which holds the statuses and the threshold; client components, SQL
 * builders and services import it.
 */
import { isCollecting, isCrowdfund } from "@/lib/events/lifecycle";
import { goAheadFrom } from "@/lib/events/money-sentences";

// ---- the early go-ahead (DESIGN §1 "early go-ahead") ---------------------------------------------

/** An organizer who opted in may go ahead from this many members: 80% of the goal, rounded up (said once, in the money sentences). */
export { goAheadFrom };

/** Whether the organizer may go ahead now: opted in, a paction still collecting, from 80% of the goal. */
export const mayGoAhead = (
  c: {
    earlyGoAhead?: boolean;
    pactType?: string | null;
    status: string;
    deadline: Date;
    goal: number;
    committedCount: number;
    approvalStatus: string;
  },
  now: Date,
) =>
  Boolean(c.earlyGoAhead) &&
  c.approvalStatus === "approved" &&
  !isCrowdfund(c) &&
  isCollecting(c, now) &&
  c.committedCount >= goAheadFrom(c) &&
  c.committedCount < c.goal;

// ---- personal thresholds (DESIGN §1 "personal thresholds") ----------------------------------------

/** The most a personal threshold may name: the capacity, or 10,000 people. */
export const maxPersonalThreshold = (c: { capacity?: number | null }) => c.capacity ?? 10_000;

/**
 * How many members a paction has: the largest k with at least k commitments whose threshold N ≤ k
 * (a commitment without a condition has N = 1). Every commitment with N ≤ k is then a member, and
 * there are exactly k of them. Input: the thresholds, or a histogram of them (threshold → count).
 */
export function memberCount(thresholds: Iterable<number> | Map<number, number>): number {
  const hist = thresholds instanceof Map ? thresholds : new Map<number, number>();
  if (!(thresholds instanceof Map)) for (const n of thresholds) hist.set(n, (hist.get(n) ?? 0) + 1);
  const levels = [...hist.keys()].sort((a, b) => a - b);
  let total = 0;
  for (const n of levels) total += hist.get(n)!;
  // walk the levels downward: below a level L, #{N ≤ k} is constant until the next lower level
  let atMost = total; // #{N ≤ k} for k at or above the highest level
  for (let i = levels.length - 1; i >= 0; i--) {
    const lo = levels[i];
    const hi = i === levels.length - 1 ? Infinity : levels[i + 1] - 1;
    // for k in [lo, hi], #{N ≤ k} = atMost: the largest k there with k ≤ atMost
    const k = Math.min(hi, atMost);
    if (k >= lo) return k;
    atMost -= hist.get(lo)!;
  }
  return 0;
}

/**
 * How many more commitments without a condition would bring the members to `goal` (0: already).
 * Conditions held by people already in may join on the way: the cascade.
 */
export function firmNeeded(thresholds: Map<number, number>, goal: number): number {
  const withFirm = (f: number) => {
    const h = new Map(thresholds);
    h.set(1, (h.get(1) ?? 0) + f);
    return memberCount(h);
  };
  if (withFirm(0) >= goal) return 0;
  let lo = 1;
  let hi = goal; // goal firm commitments always suffice
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    if (withFirm(mid) >= goal) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}
