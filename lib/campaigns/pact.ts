/**
 * The kind of pact an event is (DESIGN §1 "pact types"), in one place for the commit path, charging,
 * pages and emails. Pure and dependency-free: client components import it too.
 *
 * - a paid paction: backers save a card and are charged the ticket price when it tips;
 * - a crowdfund: backers pledge an amount (≥ $1) with a saved card and are charged that amount when
 *   it tips, whatever the ticket price (it is not used for crowdfunds);
 * - a free paction: no card, nothing charged.
 */
export type PactKind = { pactType?: string | null; ticketPriceCents: number };

export const isCrowdfund = (c: { pactType?: string | null }) => c.pactType === "crowdfund";

/** Backers save a card and are charged at the tip: paid pactions and every crowdfund. */
export const isPaidEvent = (c: PactKind) => isCrowdfund(c) || c.ticketPriceCents > 0;

/** Nothing is charged: a paction without a ticket price. */
export const isFreeEvent = (c: PactKind) => !isPaidEvent(c);

/** What charging one pledge takes: the crowdfund pledge's own amount, else the ticket price. */
export const pledgeChargeCents = (c: PactKind, pledge: { amountCents: number }) =>
  isCrowdfund(c) ? pledge.amountCents : c.ticketPriceCents;

/** $1: a crowdfund pledge counts whole dollars toward the goal. */
export const CROWDFUND_MIN_CENTS = 100;
