import { describe, expect, it } from "vitest";
import { platformFeeCents, processingFeeCents, ticketsAfterFees } from "@/lib/payments/fees";

describe("the fee model the create review estimates with (issue 34 item 6)", () => {
  it("40 tickets of $10 leave about $376 of $400 after the card processor's 2.9% + 30¢", () => {
    expect(processingFeeCents(1000)).toBe(59);
    expect(ticketsAfterFees(40, 1000, { bps: 0, fixedCents: 0 })).toEqual({
      grossCents: 40_000,
      feesCents: 2_360,
      netCents: 37_640,
    });
  });
  it("adds the platform's terms per charge, and a free event has none", () => {
    expect(platformFeeCents(1000, { bps: 500, fixedCents: 10 })).toBe(60);
    expect(ticketsAfterFees(40, 1000, { bps: 500, fixedCents: 10 }).netCents).toBe(40_000 - 40 * (59 + 60));
    expect(ticketsAfterFees(40, 0, { bps: 500, fixedCents: 10 })).toEqual({
      grossCents: 0,
      feesCents: 0,
      netCents: 0,
    });
  });
});
