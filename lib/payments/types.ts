/**
 * The payment provider's interface (DESIGN §1 "payments provider"): Stripe when its keys are set,
 * otherwise the built-in demo mode (lib/payments/gateway.ts picks one). lib/payments knows no
 * domain: it charges, refunds and saves cards; what a charge means for a pledge is lib/charging's.
 */
export type CardSummary = {
  paymentMethodId: string;
  brand: string;
  last4: string;
  expMonth: number;
  expYear: number;
};

export type ChargeResult =
  | { status: "succeeded"; paymentIntentId: string }
  | { status: "failed"; code: string; message: string; paymentIntentId?: string; retryable: boolean }
  | { status: "requires_action"; code: "authentication_required"; message: string; paymentIntentId: string };

export type ChargeInput = {
  pledgeId: string;
  campaignId: string;
  userId: string;
  paymentMethodId: string;
  amountCents: number;
  /** issue 36: a show-up deposit charged in the same payment (added to amountCents; its own money row) */
  depositCents?: number;
  /** the pledge's charge attempt number: the idempotency key is derived from pledge id + attempt */
  attempt: number;
  /** the user's customer at the provider when the caller has already read it (User.stripeCustomerId); looked up otherwise */
  customerId?: string | null;
};

export interface PaymentGateway {
  mode: "stripe" | "demo";
  createSetupIntent(user: { id: string; email: string }): Promise<{ clientSecret: string }>;
  /** Throws AppError BAD_REQUEST if it is not that user's saved card. */
  getCard(user: { id: string }, paymentMethodId: string): Promise<CardSummary>;
  /** Off-session charge (the backer is absent), idempotent per (pledgeId, attempt). */
  charge(input: ChargeInput): Promise<ChargeResult>;
  /** On-session charge from the recovery page: the backer is present and can authenticate. */
  chargeOnSession(input: ChargeInput): Promise<ChargeResult>;
  /** A payment's current state; `clientSecret` lets the browser finish authentication (Stripe only). */
  retrieveIntent(
    paymentIntentId: string,
  ): Promise<{ result: ChargeResult; clientSecret: string | null; metadata: Record<string, string> }>;
  /**
   * Cancels a payment still waiting for the payer (authentication): afterwards it can never
   * succeed. Returns the payment's final state: `succeeded` if it went through first.
   */
  cancelIntent(paymentIntentId: string): Promise<ChargeResult>;
  /**
   * A refund of a payment under `key` (the ledger's refund row's key): the same key replays the first
   * answer. In full, or `amountCents` of it (issue 36: a deposit, or the ticket part of a charge that
   * carried one).
   */
  refund(input: {
    key: string;
    pledgeId: string;
    paymentIntentId: string;
    amountCents?: number;
  }): Promise<{ refundId: string }>;
  detach(paymentMethodId: string): Promise<void>;

  // ---- payouts to organizers (issue 23): Stripe Connect Express, or the demo stand-in ----------
  /** The organizer's connected account, created once per user (idempotent). */
  createPayoutAccount(user: { id: string; email: string }): Promise<{ accountId: string }>;
  /** Where the organizer completes or updates the account's details (Stripe's hosted onboarding). */
  payoutAccountLink(
    accountId: string,
    urls: { returnUrl: string; refreshUrl: string },
  ): Promise<{ url: string }>;
  readPayoutAccount(accountId: string): Promise<PayoutAccountState>;
  /**
   * Moves money to (transfer) or back from (reversal) an organizer's account under `key`: the same
   * key replays the first answer. Throws when the outcome is unknown (transport, provider down).
   */
  transfer(input: MoneyMove & { accountId: string }): Promise<MoveResult>;
  reverseTransfer(input: MoneyMove & { transferId: string }): Promise<MoveResult>;
  /** A transfer already made for this payout (looked up by its group and metadata), or null. */
  findTransfer(input: { campaignId: string; payoutId: string }): Promise<string | null>;
  /** The provider's processing fee of a successful charge, in cents. */
  processingFee(paymentIntentId: string): Promise<number>;
}

export type PayoutAccountState = {
  status: "pending" | "ready" | "restricted";
  /** what the provider still needs, in words; null when nothing */
  requirements: string | null;
};
export type MoneyMove = { key: string; amountCents: number; campaignId: string; payoutId: string };
export type MoveResult = { status: "succeeded"; id: string } | { status: "failed"; message: string };

/** Idempotency key of one charge attempt: a retry of the same attempt reuses it. */
export const chargeIdempotencyKey = (pledgeId: string, attempt: number) =>
  `pledge-${pledgeId}-attempt-${attempt}`;
