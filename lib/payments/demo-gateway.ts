import "server-only";
import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { db, Prisma, queryOn } from "@/lib/db";
import { env } from "@/lib/env";
import { AppError } from "@/lib/errors";
import {
  chargeIdempotencyKey,
  type CardSummary,
  type ChargeInput,
  type ChargeResult,
  type PaymentGateway,
} from "@/lib/payments/types";
import {
  CARD_MESSAGES,
  checkCard,
  DEMO_BEHAVIOR,
  DEMO_DECLINED_ON_SAVE,
  type ConfirmDemoSetupInput,
} from "@/lib/payments/schema";
import { processingFeeCents } from "@/lib/payments/fees";

/**
 * Demo payments (DESIGN §1): behaves like Stripe's test cards without a provider. Only what a real
 * provider would keep is stored (brand, last 4, expiry, a token, and the test card's behaviour).
 * A setup "client secret" is signed and bound to the user who asked for it, so a secret cannot be
 * confirmed by someone else; a charge is recorded once per idempotency key (unique column), which
 * gives the demo mode the same exactly-once guarantee as Stripe's Idempotency-Key.
 */
function signingSecret(): string {
  const e = env();
  return e.NEXTAUTH_SECRET ?? `demo:${e.DATABASE_URL}`;
}

const sign = (userId: string, nonce: string) =>
  createHmac("sha256", signingSecret())
    .update(`demo-setup:${userId}:${nonce}`)
    .digest("base64url")
    .slice(0, 32);

export function createDemoSetupSecret(userId: string): string {
  const nonce = randomBytes(12).toString("hex");
  return `seti_demo_${nonce}_secret_${sign(userId, nonce)}`;
}

/** The setup intent id of a demo secret signed for `userId`, or null. */
function verifyDemoSetupSecret(userId: string, clientSecret: string): string | null {
  const m = /^seti_demo_([0-9a-f]{24})_secret_([A-Za-z0-9_-]{32})$/.exec(clientSecret);
  if (!m) return null;
  const expected = Buffer.from(sign(userId, m[1]));
  const given = Buffer.from(m[2]);
  if (expected.length !== given.length || !timingSafeEqual(expected, given)) return null;
  return m[1];
}

export type DemoSetupResult =
  | { ok: true; setupIntent: { id: string; status: "succeeded"; payment_method: string } }
  | {
      ok: false;
      status: 400 | 402;
      error: { type: "card_error" | "invalid_request_error"; code: string; message: string };
    };

/** The demo counterpart of stripe.confirmSetup: validates the card like Stripe and saves a token. */
export async function confirmDemoSetup(
  userId: string,
  input: ConfirmDemoSetupInput,
): Promise<DemoSetupResult> {
  const nonce = verifyDemoSetupSecret(userId, input.clientSecret);
  if (!nonce) {
    return {
      ok: false,
      status: 400,
      error: {
        type: "invalid_request_error",
        code: "resource_missing",
        message: "No such setupintent. Please try again.",
      },
    };
  }
  const card = checkCard(input);
  if (!card.ok)
    return { ok: false, status: 400, error: { type: "card_error", code: card.code, message: card.message } };
  if (card.number === DEMO_DECLINED_ON_SAVE) {
    return {
      ok: false,
      status: 402,
      error: { type: "card_error", code: "card_declined", message: CARD_MESSAGES.declined },
    };
  }
  const id = `pm_demo_${nonce}`;
  const setupIntent = { id: `seti_demo_${nonce}`, status: "succeeded" as const, payment_method: id };
  try {
    await db.demoPaymentMethod.create({
      data: {
        id,
        userId,
        brand: card.brand,
        last4: card.number.slice(-4),
        expMonth: card.expMonth,
        expYear: card.expYear,
        behavior: DEMO_BEHAVIOR[card.number] ?? "ok",
      },
    });
  } catch (e) {
    if (!(e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002")) throw e;
    return {
      ok: false,
      status: 400,
      error: {
        type: "invalid_request_error",
        code: "setup_intent_unexpected_state",
        message: "You cannot confirm this SetupIntent because it has already succeeded.",
      },
    };
  }
  return { ok: true, setupIntent };
}

async function demoCharge(input: ChargeInput & { onSession?: boolean }): Promise<ChargeResult> {
  const idempotencyKey = chargeIdempotencyKey(input.pledgeId, input.attempt);
  const existing = await db.demoPaymentIntent.findUnique({ where: { idempotencyKey } });
  if (existing) return resultOf(existing);
  const pm = await db.demoPaymentMethod.findUnique({ where: { id: input.paymentMethodId } });
  let status: "succeeded" | "failed" | "requires_action" = "succeeded";
  let failureCode: string | null = null;
  if (!pm || pm.detached || pm.userId !== input.userId) {
    status = "failed";
    failureCode = "payment_method_unavailable";
  } else if (pm.behavior === "charge_fails") {
    status = "failed";
    failureCode = "card_declined";
  } else if (pm.behavior === "authentication_required" && !input.onSession) {
    // On-session the backer is present and "authenticates"; off-session the bank asks for it.
    status = "requires_action";
    failureCode = "authentication_required";
  }
  try {
    const created = await db.demoPaymentIntent.create({
      data: {
        id: `pi_demo_${randomBytes(12).toString("hex")}`,
        idempotencyKey,
        paymentMethodId: input.paymentMethodId,
        amountCents: input.amountCents + (input.depositCents ?? 0),
        status,
        failureCode,
        metadata: {
          pledgeId: input.pledgeId,
          campaignId: input.campaignId,
          attempt: String(input.attempt),
          ...(input.depositCents ? { depositCents: String(input.depositCents) } : {}),
        },
      },
    });
    return resultOf(created);
  } catch (e) {
    // Another instance recorded this idempotency key first: return its result, as Stripe would.
    if (e instanceof Prisma.PrismaClientKnownRequestError && e.code === "P2002") {
      return resultOf(await db.demoPaymentIntent.findUniqueOrThrow({ where: { idempotencyKey } }));
    }
    throw e;
  }
}

function resultOf(pi: { id: string; status: string; failureCode: string | null }): ChargeResult {
  if (pi.status === "succeeded") return { status: "succeeded", paymentIntentId: pi.id };
  if (pi.status === "requires_action") {
    return {
      status: "requires_action",
      code: "authentication_required",
      message: "Your card was declined. This transaction requires authentication.",
      paymentIntentId: pi.id,
    };
  }
  if (pi.failureCode === "payment_method_unavailable") {
    return {
      status: "failed",
      code: "payment_method_unavailable",
      message: "The saved card is no longer available.",
      paymentIntentId: pi.id,
      retryable: false,
    };
  }
  return {
    status: "failed",
    code: pi.failureCode ?? "card_declined",
    message: CARD_MESSAGES.declined,
    paymentIntentId: pi.id,
    retryable: false,
  };
}

type PayoutMethods =
  | "createPayoutAccount"
  | "payoutAccountLink"
  | "readPayoutAccount"
  | "transfer"
  | "reverseTransfer"
  | "findTransfer"
  | "processingFee";

/** The demo's saved cards and payments. */
const demoPayments: Omit<PaymentGateway, "mode" | PayoutMethods> = {
  async createSetupIntent(user) {
    return { clientSecret: createDemoSetupSecret(user.id) };
  },
  async getCard(user, paymentMethodId): Promise<CardSummary> {
    // raw and prepared: every paid commit asks (issue 37's one-tap commits, bench "saved card")
    const [pm] = await queryOn<{
      id: string;
      userId: string;
      brand: string;
      last4: string;
      expMonth: number;
      expYear: number;
      detached: boolean;
    }>(db)`
      SELECT id, "userId", brand, last4, "expMonth", "expYear", detached
      FROM "DemoPaymentMethod" WHERE id = ${paymentMethodId}`;
    if (!pm || pm.userId !== user.id || pm.detached)
      throw new AppError("BAD_REQUEST", "That payment method is not one of your saved cards.");
    return {
      paymentMethodId: pm.id,
      brand: pm.brand,
      last4: pm.last4,
      expMonth: pm.expMonth,
      expYear: pm.expYear,
    };
  },
  charge: (input) => demoCharge(input),
  chargeOnSession: (input) => demoCharge({ ...input, onSession: true }),
  async retrieveIntent(paymentIntentId) {
    const pi = await db.demoPaymentIntent.findUnique({ where: { id: paymentIntentId } });
    if (!pi) throw new AppError("NOT_FOUND", "No such payment.");
    return {
      result: resultOf(pi),
      clientSecret: null,
      metadata: (pi.metadata ?? {}) as Record<string, string>,
    };
  },
  async cancelIntent(paymentIntentId) {
    await db.demoPaymentIntent.updateMany({
      where: { id: paymentIntentId, status: "requires_action" },
      data: { status: "failed", failureCode: "canceled" },
    });
    const pi = await db.demoPaymentIntent.findUnique({ where: { id: paymentIntentId } });
    if (!pi) throw new AppError("NOT_FOUND", "No such payment.");
    return resultOf(pi);
  },
  async refund({ key, paymentIntentId, amountCents }) {
    const pi = await db.demoPaymentIntent.findUnique({ where: { id: paymentIntentId } });
    if (!pi || pi.status !== "succeeded")
      throw new AppError("BAD_REQUEST", "That payment cannot be refunded.");
    const suffix = paymentIntentId.slice("pi_demo_".length);
    if (amountCents === undefined) {
      await db.demoPaymentIntent.update({ where: { id: paymentIntentId }, data: { refunded: true } });
      return { refundId: `re_demo_${suffix}` };
    }
    // issue 36: a part of the payment, once per key (a replay answers the same), never more than was paid
    const id = `re_demo_${suffix}_${createHash("sha256").update(key).digest("hex").slice(0, 12)}`;
    const done = await db.$executeRaw`
      UPDATE "DemoPaymentIntent" SET "refundedCents" = "refundedCents" + ${amountCents},
        "refundKeys" = COALESCE("refundKeys", '{}'::jsonb) || jsonb_build_object(${key}::text, ${amountCents}::int)
      WHERE "id" = ${paymentIntentId} AND NOT "refunded" AND NOT (COALESCE("refundKeys", '{}'::jsonb) ? ${key})
        AND "refundedCents" + ${amountCents} <= "amountCents"`;
    if (done === 0) {
      const now = await db.demoPaymentIntent.findUniqueOrThrow({ where: { id: paymentIntentId } });
      const keys = (now.refundKeys ?? {}) as Record<string, number>;
      if (!(key in keys)) throw new AppError("BAD_REQUEST", "That payment cannot be refunded by that much.");
    }
    return { refundId: id };
  },
  async detach(paymentMethodId) {
    await db.demoPaymentMethod.updateMany({ where: { id: paymentMethodId }, data: { detached: true } });
  },
};

const demoPayouts: Pick<PaymentGateway, PayoutMethods> = {
  // Payouts (issue 23): the demo stand-in. The organizer's account lives in PayoutAccount only; its
  // state is what the demo onboarding page (app/payouts/demo) set. Transfers move no money: their
  // ids derive from the idempotency key, so a re-drive returns the same transfer.
  async createPayoutAccount(user) {
    return { accountId: `acct_demo_${createHash("sha256").update(user.id).digest("hex").slice(0, 16)}` };
  },
  async payoutAccountLink(accountId, urls) {
    const back = new URL(urls.returnUrl);
    return { url: `${back.origin}/payouts/demo?account=${encodeURIComponent(accountId)}` };
  },
  async readPayoutAccount(accountId) {
    const row = await db.payoutAccount.findUnique({
      where: { accountId },
      select: { status: true, requirements: true },
    });
    return { status: row?.status ?? "pending", requirements: row?.requirements ?? null };
  },
  async transfer(input) {
    const row = await db.payoutAccount.findUnique({
      where: { accountId: input.accountId },
      select: { status: true },
    });
    if (row?.status !== "ready")
      return { status: "failed", message: "The payout account cannot receive transfers yet." };
    return {
      status: "succeeded",
      id: `tr_demo_${createHash("sha256").update(input.key).digest("hex").slice(0, 20)}`,
    };
  },
  async reverseTransfer(input) {
    return {
      status: "succeeded",
      id: `trr_demo_${createHash("sha256").update(input.key).digest("hex").slice(0, 20)}`,
    };
  },
  async findTransfer() {
    return null; // a demo transfer's id derives from its key: re-sending it returns the same one
  },
  async processingFee(paymentIntentId) {
    const pi = await db.demoPaymentIntent.findUnique({
      where: { id: paymentIntentId },
      select: { amountCents: true },
    });
    if (!pi) throw new AppError("NOT_FOUND", "No such payment.");
    return demoProcessingFee(pi.amountCents);
  },
};

export function demoGateway(): PaymentGateway {
  return { mode: "demo", ...demoPayments, ...demoPayouts };
}

/** The demo's processing fee: Stripe's standard US card price (2.9% + 30¢, lib/payments/fees), so the demo's numbers look real. */
export const demoProcessingFee = processingFeeCents;
