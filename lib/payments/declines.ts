/**
 * Hard declines: retrying the same card cannot succeed, the backer must use another card. Soft
 * declines (insufficient_funds, processing_error, generic_decline…) may succeed on a later try.
 */
export const HARD_DECLINE_CODES = [
  "lost_card",
  "stolen_card",
  "pickup_card",
  "fraudulent",
  "restricted_card",
  "invalid_account",
  "card_not_supported",
  "currency_not_supported",
  "do_not_honor",
  "do_not_try_again",
  "incorrect_number",
  "invalid_number",
  "expired_card",
  "revocation_of_all_authorizations",
  "revocation_of_authorization",
  "security_violation",
  "stop_payment_order",
  "transaction_not_allowed",
  "payment_method_unavailable",
  "resource_missing",
  "invalid_amount",
  // not a decline: the provider would not say how an earlier request with this key ended (never retried by itself)
  "idempotency_conflict",
] as const;

const HARD = new Set<string>(HARD_DECLINE_CODES);

export function isHardDecline(code: string | null | undefined): boolean {
  return Boolean(code && HARD.has(code));
}

const PLAIN: Record<string, string> = {
  insufficient_funds: "The card doesn't have enough funds.",
  expired_card: "The card has expired.",
  incorrect_cvc: "The card's security code didn't match.",
  invalid_cvc: "The card's security code didn't match.",
  incorrect_number: "The card number isn't valid.",
  invalid_number: "The card number isn't valid.",
  processing_error: "The bank couldn't process the charge just then.",
  authentication_required:
    "Your bank asked you to confirm the charge, which can't be done while you're away.",
  card_velocity_exceeded: "The card has reached its spending limit.",
  withdrawal_count_limit_exceeded: "The card has reached its spending limit.",
};

/** Why a charge failed, in plain words for the backer (the provider's own message is the fallback). */
export function declineInPlainWords(
  code: string | null | undefined,
  message: string | null | undefined,
): string {
  if (code && PLAIN[code]) return PLAIN[code];
  if (code && HARD.has(code)) return "Your bank declined the charge on this card.";
  return message?.trim() || "Your bank declined the charge.";
}
