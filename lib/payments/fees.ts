/**
 * The fees on a ticket, as the product counts them (lib/payouts/ledger.ts): the card processor's
 * (Stripe's standard US card price, 2.9% + 30¢ per charge — what the demo gateway charges and what
 * Stripe usually reports; the real figure is read per charge) and the platform's, the terms
 * PLATFORM_FEE_BPS / PLATFORM_FEE_FIXED_CENTS an event is created with (default none). Shared by
 * server and browser: the create wizard's review estimates what the organizer collects with it.
 */
export const PROCESSING_FEE = { bps: 290, fixedCents: 30 } as const;

export type PlatformFeeTerms = { bps: number; fixedCents: number };

/** The processor's fee on one charge of `amountCents`. */
export const processingFeeCents = (amountCents: number) =>
  Math.round((amountCents * PROCESSING_FEE.bps) / 10_000) + PROCESSING_FEE.fixedCents;

/** The platform's fee on one charge kept (the ledger's rounding: per charge). */
export const platformFeeCents = (amountCents: number, terms: PlatformFeeTerms) =>
  Math.round((amountCents * terms.bps) / 10_000) + terms.fixedCents;

/**
 * What `count` tickets of `priceCents` come to, and what is left after fees: the organizer's
 * estimate at the goal ("about $376 of $400 after fees" for 40 × $10). Nothing for a free event.
 */
export function ticketsAfterFees(count: number, priceCents: number, terms: PlatformFeeTerms) {
  if (priceCents <= 0 || count <= 0) return { grossCents: 0, feesCents: 0, netCents: 0 };
  const perCharge = processingFeeCents(priceCents) + platformFeeCents(priceCents, terms);
  const grossCents = count * priceCents;
  const feesCents = Math.min(grossCents, count * perCharge);
  return { grossCents, feesCents, netCents: grossCents - feesCents };
}
