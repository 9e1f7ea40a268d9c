import "server-only";
import type Stripe from "stripe";
import { getGateway } from "@/lib/payments/gateway";
import { forgetStripeEvent, handleStripeEventOnce } from "@/lib/payments/webhook";
import { applyAccountState } from "@/lib/payouts/accounts";
import { recordTransferReport } from "@/lib/payouts/service";

/** The Stripe events payouts act on (issue 23); the route sends these here. */
export const PAYOUT_EVENT_TYPES = ["account.updated", "transfer.created", "transfer.updated"] as const;

type Change = { account?: Stripe.Account; transfer?: { payoutId: string; id: string } };

/** What the event says changed: an organizer's account, or a transfer of a payout. */
function changeOf(event: Stripe.Event): Change {
  switch (event.type) {
    case "account.updated": {
      const a = event.data.object as Stripe.Account;
      return a?.object === "account" && typeof a.id === "string" ? { account: a } : {};
    }
    case "transfer.created":
    case "transfer.updated": {
      const t = event.data.object as Stripe.Transfer;
      const payoutId = t?.metadata?.payoutId;
      return t?.object === "transfer" &&
        typeof t.id === "string" &&
        typeof payoutId === "string" &&
        payoutId.length <= 64
        ? { transfer: { payoutId, id: t.id } }
        : {};
    }
    default:
      return {};
  }
}

/**
 * Handles one verified account or transfer event once (false when its id was already handled).
 * The change is applied after the event is recorded; if that fails, the event is forgotten so
 * Stripe's redelivery is handled, not answered "duplicate".
 */
export async function handlePayoutEvent(event: Stripe.Event): Promise<boolean> {
  const result = await handleStripeEventOnce(event, async () => changeOf(event));
  if (!result) return false;
  const { account, transfer } = result.value;
  try {
    // Events of organizers' accounts arrive in any order: the account is read again rather than
    // taken from the event's copy, which may be older than one already applied.
    if (account) await applyAccountState(account.id, await getGateway().readPayoutAccount(account.id));
    if (transfer) await recordTransferReport(transfer.payoutId, transfer.id);
  } catch (err) {
    await forgetStripeEvent(event.id);
    throw err;
  }
  return true;
}
