import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { promotable } from "@/lib/campaigns/places";

/**
 * Issue 37: who takes the places that open (lib/campaigns/places promotable), against its rule on
 * random lines: in line order, a group as one; a group that fits is promoted whole; one that does not
 * is promoted in part only if its holder agreed (filling the places left), else it keeps its place
 * and the opening goes to the next entry that fits.
 */
const lineArb = fc.array(fc.record({ seats: fc.integer({ min: 1, max: 5 }), partialOk: fc.boolean() }), {
  maxLength: 12,
});

function seatsOf(line: { seats: number; partialOk: boolean }[]) {
  return line.flatMap((g, gi) =>
    Array.from({ length: g.seats }, (_, s) => ({
      id: `g${gi}s${s}`,
      entry: `g${gi}`,
      partialOk: g.partialOk,
    })),
  );
}

describe("promotable (a waiting group's places)", () => {
  it("follows the rule on random lines and places", () => {
    fc.assert(
      fc.property(lineArb, fc.integer({ min: 0, max: 12 }), (line, places) => {
        const chosen = new Set(promotable(seatsOf(line), places));
        expect(chosen.size).toBeLessThanOrEqual(places);
        let left = places;
        line.forEach((g, gi) => {
          const taken = Array.from({ length: g.seats }, (_, s) => chosen.has(`g${gi}s${s}`));
          const n = taken.filter(Boolean).length;
          // seats are taken from the holder's own first
          expect(taken).toEqual(taken.map((_, s) => s < n));
          if (left === 0) expect(n).toBe(0);
          else if (g.seats <= left) expect(n).toBe(g.seats);
          else expect(n).toBe(g.partialOk ? left : 0);
          left -= n;
        });
      }),
      { numRuns: 2000 },
    );
  });
});
