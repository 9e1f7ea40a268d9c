import type { FakeStripe } from "./server";

/**
 * Points the app's Stripe gateway at a fake server. Call before anything reads `env()` in the test
 * file (env() is parsed once per DATABASE_URL).
 */
export function useFakeStripeEnv(fake: FakeStripe, extra: Record<string, string> = {}) {
  process.env.STRIPE_SECRET_KEY = "sk_test_fake";
  process.env.NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY = "pk_test_fake";
  process.env.STRIPE_WEBHOOK_SECRET = "whsec_test_fake";
  process.env.STRIPE_API_HOST = fake.url;
  Object.assign(process.env, extra);
}
