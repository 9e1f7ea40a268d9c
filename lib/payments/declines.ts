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
] as const;

const HARD = new Set<string>(HARD_DECLINE_CODES);

export function isHardDecline(code: string | null | undefined): boolean {
  return Boolean(code && HARD.has(code));
}
