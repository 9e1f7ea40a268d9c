import "server-only";
import Stripe from "stripe";
import { db, type Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";

/**
 * Stripe webhooks (POST /api/stripe/webhook): the signature is verified here, then the route hands
 * each event type to its domain's handler (payment_intent.* to lib/charging/on-intent.ts, account
 * and transfer events to lib/payouts/on-transfer.ts). Deliveries are at least once and unordered,
 * so each event id is stored under a unique key in the same transaction as its effect
 * (handleStripeEventOnce): handled once; a failed handling rolls back and Stripe redelivers.
 */
export function verifyStripeEvent(rawBody: string, signature: string | null): Stripe.Event {
  // The platform's endpoint secret, and Connect's (events of organizers' accounts, issue 23).
  const secrets = [env().STRIPE_WEBHOOK_SECRET, env().STRIPE_CONNECT_WEBHOOK_SECRET].filter(
    Boolean,
  ) as string[];
  // 404: without a secret the endpoint does not exist here (a 5xx would claim a server fault)
  if (secrets.length === 0)
    throw new AppError("NOT_FOUND", "Stripe webhooks are not configured on this server.");
  if (!signature) throw new AppError("BAD_REQUEST", "Missing Stripe-Signature header.");
  let event: Stripe.Event | null = null;
  for (const secret of secrets) {
    try {
      event = Stripe.webhooks.constructEvent(rawBody, signature, secret);
      break;
    } catch {
      // the other secret, if any
    }
  }
  if (!event) throw new AppError("BAD_REQUEST", "Invalid Stripe webhook signature.");
  if (!event || typeof event.id !== "string" || typeof event.type !== "string" || event.id.length > 255) {
    throw new AppError("BAD_REQUEST", "The webhook body is not a Stripe event.");
  }
  return event;
}

/**
 * Runs `apply` inside the transaction that records the event's id, and marks it processed there.
 * Null when the id was handled already (a redelivery).
 */
export async function handleStripeEventOnce<T>(
  event: Stripe.Event,
  apply: (tx: Prisma.TransactionClient) => Promise<T>,
): Promise<{ value: T } | null> {
  return db.$transaction(async (tx) => {
    const inserted = await tx.$executeRaw`
      INSERT INTO "StripeEvent" ("id", "type", "receivedAt") VALUES (${event.id}, ${event.type}, now()) ON CONFLICT ("id") DO NOTHING`;
    if (inserted === 0) return null;
    const value = await apply(tx);
    await tx.stripeEvent.update({ where: { id: event.id }, data: { processedAt: new Date() } });
    return { value };
  });
}

/**
 * Forgets a handled event whose follow-up after the transaction failed, so Stripe's redelivery is
 * handled, not answered "duplicate".
 */
export async function forgetStripeEvent(id: string): Promise<void> {
  await db.stripeEvent.deleteMany({ where: { id } });
}

/**
 * An event no domain acts on (setup_intent.*: a saved card reaches a pledge only through the
 * commit, which re-reads the payment method from Stripe): recorded once. False for a redelivery.
 */
export async function recordStripeEvent(event: Stripe.Event): Promise<boolean> {
  return (await handleStripeEventOnce(event, async () => undefined)) !== null;
}
