import Stripe from "stripe";

let n = 0;

/**
 * Delivers a Stripe event to the app's webhook handler (`post`, the route's POST), signed with the
 * secret tests/fake-stripe/env.ts sets: `{ type, data: { object } }` under a fresh event id.
 */
export function deliverStripeEvent(
  post: (req: Request) => Promise<Response>,
  type: string,
  object: object,
  secret = "whsec_test_fake",
): Promise<Response> {
  const payload = JSON.stringify({
    id: `evt_test_${Date.now().toString(36)}_${++n}`,
    object: "event",
    type,
    created: Math.floor(Date.now() / 1000),
    data: { object },
  });
  const header = Stripe.webhooks.generateTestHeaderString({ payload, secret });
  return post(
    new Request("http://test/api/stripe/webhook", {
      method: "POST",
      body: payload,
      headers: { "stripe-signature": header },
    }),
  );
}
