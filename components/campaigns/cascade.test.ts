import { describe, expect, it } from "vitest";
import { cascadeSentence } from "@/components/campaigns/cascade";

describe("the cascade's sentence (issue 34 item 7: plurals)", () => {
  it("agrees with every number in it", () => {
    expect(
      cascadeSentence({ members: 1, goal: 10, next: { at: 1, count: 3 }, waiting: 3, firmNeeded: 1 }),
    ).toBe("1 is in. 3 more join once 1 person is in — 1 more firm commitment would tip it.");
    expect(
      cascadeSentence({ members: 4, goal: 10, next: { at: 6, count: 1 }, waiting: 3, firmNeeded: 2 }),
    ).toBe("4 are in. 1 more joins once 6 people are in — 2 more firm commitments would tip it.");
    expect(cascadeSentence({ members: 10, goal: 10, next: null, waiting: 3, firmNeeded: 0 })).toBe(
      "10 are in. That reaches the goal.",
    );
  });
});
