import { handle } from "@/lib/http";
import { handleStripeEvent, verifyStripeEvent } from "@/lib/charging/webhook";

export const dynamic = "force-dynamic";

/**
 * Stripe webhook: the signature is verified on the raw body, then each event is handled once.
 * Exempt from the Origin check: Stripe's servers call it, and the signature authenticates them.
 */
export const POST = handle(
  async (req: Request) => {
    const raw = await req.text();
    const event = verifyStripeEvent(raw, req.headers.get("stripe-signature"));
    const handled = await handleStripeEvent(event);
    return Response.json({ received: true, duplicate: !handled });
  },
  { origin: "any" },
);
