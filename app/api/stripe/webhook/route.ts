import type Stripe from "stripe";
import { handle } from "@/lib/http";
import { recordStripeEvent, verifyStripeEvent } from "@/lib/payments/webhook";
import { handleIntentEvent } from "@/lib/charging/on-intent";
import { handlePayoutEvent, PAYOUT_EVENT_TYPES } from "@/lib/payouts/on-transfer";

export const dynamic = "force-dynamic";

/** Each event type goes to its domain's handler; any other is recorded once (lib/payments/webhook.ts). */
function handlerFor(type: string): (event: Stripe.Event) => Promise<boolean> {
  if (type.startsWith("payment_intent.")) return handleIntentEvent;
  if ((PAYOUT_EVENT_TYPES as readonly string[]).includes(type)) return handlePayoutEvent;
  return recordStripeEvent;
}

/**
 * Stripe webhook: the signature is verified on the raw body, then each event is handled once by
 * its domain's handler.
 * Exempt from the Origin check: Stripe's servers call it, and the signature authenticates them.
 */
export const POST = handle(
  async (req: Request) => {
    const raw = await req.text();
    const event = verifyStripeEvent(raw, req.headers.get("stripe-signature"));
    const handled = await handlerFor(event.type)(event);
    return Response.json({ received: true, duplicate: !handled });
  },
  { origin: "any" },
);
