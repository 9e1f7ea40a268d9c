import { describe, expect, it } from "vitest";
import {
  CASCADE_VALUES,
  PLEDGE,
  STAKE,
  THRESHOLD,
  TUTORIAL_STEPS,
  clampInput,
  dollars,
  refundBonus,
  refundTotal,
} from "@/components/tutorial/calc";

describe("tutorial calculator", () => {
  it("falls back to the defaults for empty or non-numeric input", () => {
    expect(clampInput("", PLEDGE)).toBe(1000);
    expect(clampInput("abc", PLEDGE)).toBe(1000);
    expect(clampInput("", STAKE)).toBe(5000);
    expect(clampInput("x", THRESHOLD)).toBe(100);
  });
  it("keeps values inside their ranges", () => {
    expect(clampInput("50", PLEDGE)).toBe(100);
    expect(clampInput("100", PLEDGE)).toBe(100);
    expect(clampInput("100000", PLEDGE)).toBe(100000);
    expect(clampInput("100001", PLEDGE)).toBe(100000);
    expect(clampInput("999", STAKE)).toBe(1000);
    expect(clampInput("60000", STAKE)).toBe(50000);
    expect(clampInput(5, THRESHOLD)).toBe(10);
    expect(clampInput(20000, THRESHOLD)).toBe(10000);
  });
  it("pays 110% back with floor rounding", () => {
    expect(refundBonus(1000)).toBe(100);
    expect(refundTotal(1000)).toBe(1100);
    expect(refundBonus(155)).toBe(15);
    expect(refundTotal(155)).toBe(170);
  });
  it("has eight steps and the fixed cascade", () => {
    expect(TUTORIAL_STEPS).toHaveLength(8);
    expect(CASCADE_VALUES).toEqual([10, 43, 156, 423, 1337, 3421, 7823, 12453]);
    expect(dollars(10_000_000)).toBe("$10,000,000");
  });
});
