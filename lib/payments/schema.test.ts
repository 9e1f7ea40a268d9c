import { describe, expect, it } from "vitest";
import { CARD_MESSAGES, DEMO_TEST_CARDS, checkCard } from "@/lib/payments/schema";

const card = (cardNumber: string) => ({ cardNumber, expMonth: "12", expYear: "2034", cvc: "1234" });

describe("demo payments take the documented test numbers only (issue 31)", () => {
  it("accepts every documented test card", () => {
    for (const n of DEMO_TEST_CARDS) expect(checkCard(card(n)).ok, n).toBe(true);
  });
  it("refuses every other valid card number, whatever its brand, before anything is sent", () => {
    // Luhn-valid numbers of every brand's shape, none of them a published test card
    const luhnComplete = (prefix: string, length: number) => {
      for (let d = 0; d <= 9; d++) {
        const n = `${prefix}${"0".repeat(length - prefix.length - 1)}${d}`;
        let sum = 0;
        for (let i = 0; i < n.length; i++) {
          let x = Number(n[n.length - 1 - i]);
          if (i % 2 === 1) x = x * 2 > 9 ? x * 2 - 9 : x * 2;
          sum += x;
        }
        if (sum % 10 === 0) return n;
      }
      throw new Error("unreachable");
    };
    for (const [prefix, length] of [
      ["4111", 16],
      ["4532", 16],
      ["5105", 16],
      ["2720", 16],
      ["3400", 15],
      ["6011", 16],
    ] as const) {
      const n = luhnComplete(prefix, length);
      const result = checkCard(card(n));
      expect(result, n).toMatchObject({ ok: false, code: "not_a_test_card", field: "cardNumber" });
      if (!result.ok) expect(result.message).toBe(CARD_MESSAGES.notATestCard);
    }
  });
  it("still reports a mistyped number as incorrect, not as a real card", () => {
    expect(checkCard(card("4242424242424241"))).toMatchObject({ ok: false, code: "incorrect_number" });
  });
});
