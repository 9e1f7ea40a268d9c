import "server-only";
import Stripe from "stripe";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { acquireProviderSlot } from "@/lib/payments/rate-limiter";

/**
 * The Stripe client and the one way to call it (payments and payouts alike).
 *
 * Retries are done here, not by the SDK (`maxNetworkRetries: 0`): every attempt must pass the
 * shared Postgres rate limiter, and a retried POST must carry the SAME Idempotency-Key so Stripe
 * answers a retry of a request it already executed with the original result instead of acting
 * again. Retried: connection errors (the request may or may not have reached Stripe), 5xx, 429
 * (exponential backoff with jitter) and 409 "request in progress" for a concurrent same-key call.
 */
const MAX_ATTEMPTS = 5;
const RATE_KEY = "stripe";

let cached: { key: string; client: Stripe } | undefined;

export function stripeClient(): Stripe {
  const e = env();
  const secret = e.STRIPE_SECRET_KEY;
  if (!secret) throw new AppError("UNAVAILABLE", "Card payments are not configured.");
  const cacheKey = `${secret}|${e.STRIPE_API_HOST ?? ""}`;
  if (cached?.key === cacheKey) return cached.client;
  const config: Stripe.StripeConfig = { maxNetworkRetries: 0, timeout: 20_000, telemetry: false };
  if (e.STRIPE_API_HOST) {
    const u = new URL(e.STRIPE_API_HOST);
    config.host = u.hostname;
    config.port = u.port || (u.protocol === "http:" ? 80 : 443);
    config.protocol = u.protocol === "http:" ? "http" : "https";
  }
  cached = { key: cacheKey, client: new Stripe(secret, config) };
  return cached.client;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function isRetryable(err: unknown): boolean {
  if (err instanceof Stripe.errors.StripeConnectionError) return true;
  if (err instanceof Stripe.errors.StripeRateLimitError) return true;
  if (err instanceof Stripe.errors.StripeAPIError) return true;
  const status = (err as { statusCode?: number })?.statusCode;
  // 409 idempotency_key_in_use: the first request with this key is still running; once it ends
  // Stripe replays its result. (Reusing a key with other parameters is a 400 idempotency_error.)
  if ((err as { code?: string })?.code === "idempotency_key_in_use") return true;
  if (status === 409 && !(err instanceof Stripe.errors.StripeIdempotencyError)) return true;
  return typeof status === "number" && status >= 500;
}

/** Runs one provider call through the shared limiter, retrying transient failures with backoff. */
export async function callStripe<T>(fn: (client: Stripe) => Promise<T>): Promise<T> {
  const client = stripeClient();
  let lastError: unknown;
  for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
    const slot = await acquireProviderSlot(RATE_KEY, env().STRIPE_RATE_LIMIT);
    try {
      return await fn(client);
    } catch (err) {
      lastError = err;
      if (!isRetryable(err) || attempt === MAX_ATTEMPTS) throw err;
      const base = err instanceof Stripe.errors.StripeRateLimitError ? 250 : 100;
      void slot.release();
      await sleep(base * 2 ** (attempt - 1) + Math.floor(Math.random() * base));
    } finally {
      // Stamped with this moment, written in the background: the answer goes back to the caller
      // without waiting for the database (an unwritten release only keeps the slot leased).
      void slot.release();
    }
  }
  throw lastError;
}
