/** Tutorial numbers (SPEC §5, §9). Illustrative only: play money, nothing is saved or charged. */
export const PLEDGE = { min: 100, max: 100_000, step: 100, fallback: 1000 } as const;
export const STAKE = { min: 1000, max: 50_000, step: 1000, fallback: 5000 } as const;
export const THRESHOLD = { min: 10, max: 10_000, step: 10, fallback: 100 } as const;
export const REFUND_BONUS_PERCENT = 10; // 110% back
export const INFRASTRUCTURE_GOAL = 10_000_000;
export const CASCADE_VALUES = [10, 43, 156, 423, 1337, 3421, 7823, 12453] as const;
export const CASCADE_INTERVAL_MS = 500;
export const TUTORIAL_STEPS = [
  "Welcome",
  "What's a Pact",
  "Pactfund the Infrastructure",
  "Refund Bonus Magic",
  "Coordinate the Move",
  "Stake Your Commitment",
  "Watch the Cascade",
  "Your Complete Pact",
] as const;

type Range = { min: number; max: number; fallback: number };

/** A typed value within its range; anything that is not a number falls back to the default. */
export function clampInput(raw: string | number, r: Range): number {
  const n = typeof raw === "number" ? raw : Number(String(raw).trim());
  if (String(raw).trim() === "" || !Number.isFinite(n)) return r.fallback;
  return Math.min(r.max, Math.max(r.min, Math.round(n)));
}

/** The refund bonus: $100 per $1,000, rounded down to whole dollars. */
export const refundBonus = (pledge: number) => Math.floor((pledge * REFUND_BONUS_PERCENT) / 100);
/** What a backer gets back if the goal fails (110%). */
export const refundTotal = (pledge: number) => pledge + refundBonus(pledge);

export const dollars = (n: number) => `$${n.toLocaleString("en-US")}`;
