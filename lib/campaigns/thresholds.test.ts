import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { firmNeeded, memberCount } from "@/lib/campaigns/thresholds";

/**
 * Issue 21: the membership rule against a brute-force oracle — the largest subset of commitments
 * whose conditions all hold (a condition N holds in a set of size ≥ N) — and its two promises:
 * adding a commitment never removes a member; withdrawing one never adds a member who was not
 * already eligible.
 */
function oracle(thresholds: number[]): number {
  let best = 0;
  const n = thresholds.length;
  for (let mask = 0; mask < 1 << n; mask++) {
    let size = 0;
    for (let i = 0; i < n; i++) if (mask & (1 << i)) size++;
    if (size <= best) continue;
    let ok = true;
    for (let i = 0; i < n && ok; i++) if (mask & (1 << i) && thresholds[i] > size) ok = false;
    if (ok) best = size;
  }
  return best;
}

/** The members themselves: every commitment whose condition holds at the member count. */
const membersOf = (thresholds: number[]) => {
  const k = memberCount(thresholds);
  return new Set(thresholds.flatMap((n, i) => (n <= k ? [i] : [])));
};

const thresholdsArb = fc.array(fc.integer({ min: 1, max: 14 }), { maxLength: 12 });

describe("memberCount (personal thresholds)", () => {
  it("equals the largest subset whose conditions all hold, on random inputs up to 12 commitments", () => {
    fc.assert(
      fc.property(thresholdsArb, (t) => {
        expect(memberCount(t)).toBe(oracle(t));
        // the members are exactly those whose N is at most the count, and there are that many
        expect(membersOf(t).size).toBe(memberCount(t));
      }),
      { numRuns: 2000 },
    );
  });

  it("adding a commitment never removes a member", () => {
    fc.assert(
      fc.property(thresholdsArb, fc.integer({ min: 1, max: 14 }), (t, added) => {
        const before = membersOf(t);
        const after = membersOf([...t, added]);
        for (const i of before) expect(after.has(i)).toBe(true);
      }),
      { numRuns: 2000 },
    );
  });

  it("withdrawing one never adds a member who was not already eligible", () => {
    fc.assert(
      fc.property(
        thresholdsArb.filter((t) => t.length > 0),
        fc.nat(),
        (t, pick) => {
          const gone = pick % t.length;
          const before = membersOf(t);
          const rest = t.filter((_, i) => i !== gone);
          const after = membersOf(rest);
          // indices in `rest` map back to `t` skipping the withdrawn one
          for (const j of after) expect(before.has(j < gone ? j : j + 1)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("reads a histogram the same as the list, and the README's example", () => {
    fc.assert(
      fc.property(thresholdsArb, (t) => {
        const h = new Map<number, number>();
        for (const n of t) h.set(n, (h.get(n) ?? 0) + 1);
        expect(memberCount(h)).toBe(memberCount(t));
      }),
    );
    // 40 firm, 30 who come only if 90 are in (themselves included): 40 in; 20 more firm make 60,
    // and then the 30 join — 90, the goal
    const h = new Map([
      [1, 40],
      [90, 30],
    ]);
    expect(memberCount(h)).toBe(40);
    expect(firmNeeded(h, 90)).toBe(20);
    expect(firmNeeded(h, 40)).toBe(0);
  });
});

describe("firmNeeded", () => {
  it("is the fewest firm commitments whose addition brings the members to the goal", () => {
    fc.assert(
      fc.property(thresholdsArb, fc.integer({ min: 1, max: 20 }), (t, goal) => {
        const h = new Map<number, number>();
        for (const n of t) h.set(n, (h.get(n) ?? 0) + 1);
        const f = firmNeeded(h, goal);
        const withFirm = (k: number) => memberCount([...t, ...Array<number>(k).fill(1)]);
        expect(withFirm(f)).toBeGreaterThanOrEqual(goal);
        if (f > 0) expect(withFirm(f - 1)).toBeLessThan(goal);
      }),
      { numRuns: 500 },
    );
  });
});

/**
 * Issue 37: a group's condition counts its seats (each seat a commitment with the group's N). The
 * oracle with weights: the heaviest set of whole groups whose conditions all hold in it (a condition
 * N holds in a set of total weight ≥ N); the rule, fed one threshold per seat, must find that weight
 * and never split a group.
 */
function weightedOracle(groups: { n: number; seats: number }[]): number {
  let best = 0;
  for (let mask = 0; mask < 1 << groups.length; mask++) {
    let weight = 0;
    for (let i = 0; i < groups.length; i++) if (mask & (1 << i)) weight += groups[i]!.seats;
    if (weight <= best) continue;
    let ok = true;
    for (let i = 0; i < groups.length && ok; i++) if (mask & (1 << i) && groups[i]!.n > weight) ok = false;
    if (ok) best = weight;
  }
  return best;
}

const groupsArb = fc.array(
  fc.record({ n: fc.integer({ min: 1, max: 30 }), seats: fc.integer({ min: 1, max: 4 }) }),
  { maxLength: 11 },
);

describe("memberCount with group weights (issue 37)", () => {
  it("equals the heaviest set of whole groups whose conditions hold, and never splits a group", () => {
    fc.assert(
      fc.property(groupsArb, (groups) => {
        const seats = groups.flatMap((g) => Array<number>(g.seats).fill(g.n));
        const k = memberCount(seats);
        expect(k).toBe(weightedOracle(groups));
        // members: whole groups whose N is at most the count, weighing exactly the count
        const members = groups.filter((g) => g.n <= k);
        expect(members.reduce((s, g) => s + g.seats, 0)).toBe(k);
      }),
      { numRuns: 2000 },
    );
  });

  it("a group joining never removes a member; a group leaving never adds one who was not eligible", () => {
    fc.assert(
      fc.property(
        groupsArb,
        fc.record({ n: fc.integer({ min: 1, max: 30 }), seats: fc.integer({ min: 1, max: 4 }) }),
        (groups, g) => {
          const expand = (gs: typeof groups) => gs.flatMap((x) => Array<number>(x.seats).fill(x.n));
          const before = memberCount(expand(groups));
          const after = memberCount(expand([...groups, g]));
          expect(after).toBeGreaterThanOrEqual(before);
          const without = memberCount(expand(groups.slice(1)));
          expect(without).toBeLessThanOrEqual(before);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
