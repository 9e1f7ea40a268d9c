import "server-only";
import Stripe from "stripe";
import { callStripe } from "@/lib/payments/stripe-client";
import type { MoneyMove, MoveResult, PayoutAccountState } from "@/lib/payments/types";

/**
 * Payouts with Stripe Connect (issue 23): Express accounts onboarded through Account Links, and
 * separate charges and transfers — every charge lands on the platform (lib/charging is unchanged),
 * and the event's money is transferred to the organizer's account after the hold, net of fees and
 * refunds; a refund after a transfer is taken back by a transfer reversal. Every transfer and
 * reversal carries the idempotency key of its Payout row (lib/payouts), so a re-drive replays.
 */

/** Readiness from the account's capabilities and requirements (also what `account.updated` carries). */
export function accountState(a: Stripe.Account): PayoutAccountState {
  const due = [...(a.requirements?.past_due ?? []), ...(a.requirements?.currently_due ?? [])];
  const words = due.length
    ? `Stripe needs: ${due
        .slice(0, 5)
        .map((d) => d.replace(/[._]/g, " "))
        .join(", ")}${due.length > 5 ? "…" : ""}.`
    : null;
  if (a.capabilities?.transfers === "active" && a.payouts_enabled)
    return { status: "ready", requirements: null };
  // Onboarding not finished, or Stripe still verifying what was submitted: not the organizer's problem yet.
  if (!a.details_submitted || a.requirements?.disabled_reason === "requirements.pending_verification")
    return { status: "pending", requirements: words };
  return { status: "restricted", requirements: words ?? "Stripe has restricted this account." };
}

/** Every transfer of an event's group, page by page (each page through the limiter). */
async function* stripeClientList(campaignId: string) {
  let startingAfter: string | undefined;
  for (;;) {
    const page = await callStripe((s) =>
      s.transfers.list({
        transfer_group: `campaign-${campaignId}`,
        limit: 100,
        starting_after: startingAfter,
      }),
    );
    yield* page.data;
    if (!page.has_more || page.data.length === 0) return;
    startingAfter = page.data[page.data.length - 1].id;
  }
}

async function move(call: () => Promise<{ id: string }>): Promise<MoveResult> {
  try {
    return { status: "succeeded", id: (await call()).id };
  } catch (err) {
    // A refusal (balance, a restricted account, nothing left to reverse) is an answer; anything
    // else leaves the outcome unknown and the caller keeps its claim.
    if (
      err instanceof Stripe.errors.StripeInvalidRequestError ||
      err instanceof Stripe.errors.StripePermissionError
    )
      return { status: "failed", message: err.message };
    throw err;
  }
}

export const stripeConnect = {
  async createPayoutAccount(user: { id: string; email: string }) {
    const account = await callStripe((s) =>
      s.accounts.create(
        {
          type: "express",
          email: user.email,
          capabilities: { transfers: { requested: true } },
          metadata: { userId: user.id },
        },
        { idempotencyKey: `payout-account-${user.id}` },
      ),
    );
    return { accountId: account.id };
  },
  async payoutAccountLink(accountId: string, urls: { returnUrl: string; refreshUrl: string }) {
    const link = await callStripe((s) =>
      s.accountLinks.create({
        account: accountId,
        type: "account_onboarding",
        return_url: urls.returnUrl,
        refresh_url: urls.refreshUrl,
      }),
    );
    return { url: link.url };
  },
  async readPayoutAccount(accountId: string) {
    return accountState(await callStripe((s) => s.accounts.retrieve(accountId)));
  },
  transfer(input: MoneyMove & { accountId: string }) {
    return move(() =>
      callStripe((s) =>
        s.transfers.create(
          {
            amount: input.amountCents,
            currency: "usd",
            destination: input.accountId,
            transfer_group: `campaign-${input.campaignId}`,
            metadata: { campaignId: input.campaignId, payoutId: input.payoutId },
          },
          { idempotencyKey: input.key },
        ),
      ),
    );
  },
  reverseTransfer(input: MoneyMove & { transferId: string }) {
    return move(() =>
      callStripe((s) =>
        s.transfers.createReversal(
          input.transferId,
          { amount: input.amountCents, metadata: { campaignId: input.campaignId, payoutId: input.payoutId } },
          { idempotencyKey: input.key },
        ),
      ),
    );
  },
  async findTransfer(input: { campaignId: string; payoutId: string }) {
    for await (const t of stripeClientList(input.campaignId))
      if (t.metadata?.payoutId === input.payoutId) return t.id;
    return null;
  },
  async processingFee(paymentIntentId: string) {
    const pi = await callStripe((s) =>
      s.paymentIntents.retrieve(paymentIntentId, { expand: ["latest_charge.balance_transaction"] }),
    );
    const charge = pi.latest_charge as Stripe.Charge | null;
    const bt = charge?.balance_transaction as Stripe.BalanceTransaction | null;
    if (!bt || typeof bt.fee !== "number")
      throw new Error(`No balance transaction for ${paymentIntentId} yet.`);
    return bt.fee;
  },
};
