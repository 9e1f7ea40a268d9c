import "server-only";
import { createHash } from "node:crypto";
import { db, type Prisma } from "@/lib/db";
import { appUrl } from "@/lib/env";
import { AppError } from "@/lib/errors";
import { getGateway } from "@/lib/payments/gateway";
import type { PayoutAccountState } from "@/lib/payments/types";
import { kickEmailSender, queueEmail } from "@/lib/email/service";
import { payoutAccountAttentionEmail } from "@/lib/payouts/emails";
import { PAYABLE_TEXTS } from "@/lib/access/payable";

/**
 * Organizers' payout accounts (issue 23). With Stripe: a Connect Express account, created once per
 * organizer, completed on Stripe's hosted onboarding (Account Links), its readiness kept current by
 * `account.updated` webhooks and by reading it when the organizer comes back. In demo mode (no
 * Stripe keys, the embedded default) the clearly marked page /payouts/demo stands in with the same
 * states. A paid event is approved only once its organizer's account is ready (lib/campaigns/service asks lib/access/payable).
 */
export type PayoutAccountView = {
  status: "not_started" | "pending" | "ready" | "restricted";
  requirements: string | null;
  provider: "stripe" | "demo" | null;
};

export const PAYOUT_TEXTS = {
  notReady: PAYABLE_TEXTS.notReady,
  demoOnly: "This page only exists in demo mode.",
  notYours: "That payout account is not yours.",
  unconfirmed:
    "Confirm your email address before you set up payouts: follow the link we emailed you (Resend it from your profile).",
} as const;

export async function getPayoutAccount(userId: string): Promise<PayoutAccountView> {
  const row = await db.payoutAccount.findUnique({ where: { userId } });
  if (!row) return { status: "not_started", requirements: null, provider: null };
  return {
    status: row.status,
    requirements: row.requirements,
    provider: row.provider === "stripe" ? "stripe" : "demo",
  };
}

/** The organizer's own account row (the demo page checks the link is theirs). */
export const getPayoutAccountRow = (userId: string) =>
  db.payoutAccount.findUnique({ where: { userId }, select: { accountId: true, status: true } });

/**
 * Payout onboarding needs a confirmed address (issue 31; a Google account's is): whoever signed up an
 * address they do not own must not connect their own bank to the account its owner will take over.
 */
async function requireConfirmedEmail(userId: string): Promise<void> {
  const user = await db.user.findUnique({ where: { id: userId }, select: { emailVerified: true } });
  if (!user?.emailVerified) throw new AppError("FORBIDDEN", PAYOUT_TEXTS.unconfirmed);
}

/**
 * Starts (or resumes) onboarding: the account is created on first use, then the organizer is sent
 * to the provider's onboarding (Stripe) or the demo page. Returns where to go. Only once the
 * organizer's email address is confirmed.
 */
export async function startPayoutOnboarding(
  viewer: { id: string; email: string } | null,
): Promise<{ url: string }> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  await requireConfirmedEmail(viewer.id);
  const gateway = getGateway();
  let row = await db.payoutAccount.findUnique({ where: { userId: viewer.id } });
  if (!row || row.provider !== gateway.mode) {
    // first time, or an account of the other provider (demo data once real keys are set): a new one
    const { accountId } = await gateway.createPayoutAccount(viewer);
    row = await db.payoutAccount.upsert({
      where: { userId: viewer.id },
      create: { userId: viewer.id, provider: gateway.mode, accountId, status: "pending" },
      update: { provider: gateway.mode, accountId, status: "pending", requirements: null },
    });
  }
  return gateway.payoutAccountLink(row.accountId, {
    returnUrl: `${appUrl()}/payouts?from=onboarding`,
    refreshUrl: `${appUrl()}/payouts?from=expired-link`,
  });
}

/**
 * Records an account's state (a webhook, or a read when the organizer comes back). A change to
 * `restricted` emails the organizer once per distinct set of requirements.
 */
export async function applyAccountState(accountId: string, state: PayoutAccountState): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const row = await tx.payoutAccount.findUnique({
      where: { accountId },
      select: { userId: true, status: true, requirements: true, user: { select: { email: true } } },
    });
    if (!row) return false;
    if (row.status === state.status && row.requirements === state.requirements) return false;
    await tx.payoutAccount.update({
      where: { accountId },
      data: { status: state.status, requirements: state.requirements },
    });
    if (state.status === "restricted") {
      const stamp = createHash("sha256")
        .update(state.requirements ?? "")
        .digest("hex")
        .slice(0, 12);
      await queueEmail(
        tx,
        payoutAccountAttentionEmail({ userId: row.userId, email: row.user.email }, state.requirements, stamp),
      );
    }
    return true;
  });
}

/** Reads the organizer's account from the provider and records it (on coming back from onboarding). */
export async function refreshPayoutAccount(userId: string): Promise<PayoutAccountView> {
  const row = await db.payoutAccount.findUnique({ where: { userId } });
  if (row && row.provider === "stripe") {
    const state = await getGateway().readPayoutAccount(row.accountId);
    if (await applyAccountState(row.accountId, state)) void kickEmailSender();
  }
  return getPayoutAccount(userId);
}

/**
 * The demo stand-in for Stripe's onboarding (clearly marked on its page): the organizer picks the
 * outcome Stripe would report. Only in demo mode, only for the organizer's own account.
 */
export async function setDemoAccountState(
  viewer: { id: string } | null,
  input: { accountId?: unknown; outcome?: unknown },
): Promise<PayoutAccountView> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (getGateway().mode !== "demo") throw new AppError("NOT_FOUND", PAYOUT_TEXTS.demoOnly);
  const row = await db.payoutAccount.findUnique({ where: { userId: viewer.id } });
  if (!row || row.accountId !== input.accountId) throw new AppError("NOT_FOUND", PAYOUT_TEXTS.notYours);
  const states: Record<string, PayoutAccountState> = {
    ready: { status: "ready", requirements: null },
    restricted: {
      status: "restricted",
      requirements: "Demo: the bank account's holder name does not match. Update the bank details.",
    },
    pending: { status: "pending", requirements: "Demo: business details not submitted yet." },
  };
  const state = typeof input.outcome === "string" ? states[input.outcome] : undefined;
  if (!state) throw new AppError("BAD_REQUEST", "Choose how the demo onboarding ends.");
  if (await applyAccountState(row.accountId, state)) void kickEmailSender();
  return getPayoutAccount(viewer.id);
}

/**
 * A confirmation or a Google sign-in takes over an account whose address was never confirmed (issue
 * 31): whoever signed it up may not own the address, so what they set up that could carry money goes,
 * in the caller's transaction — the payout account (their bank; the owner sets up their own) and the
 * link to the Stripe customer (their saved cards). Payout rows keep their own copy of the account id,
 * so no money record changes. Events, commitments and comments stay with the account.
 */
export async function dropEarlierHolderMoneySetup(
  tx: Prisma.TransactionClient,
  userId: string,
): Promise<void> {
  await tx.payoutAccount.deleteMany({ where: { userId } });
  await tx.user.update({ where: { id: userId }, data: { stripeCustomerId: null } });
}
