import { beforeEach, describe, expect, it, vi } from "vitest";
import { encode } from "next-auth/jwt";
import { authOptions } from "@/lib/auth/options";
import { signUp } from "@/lib/auth/service";
import { PAYOUT_TEXTS, startPayoutOnboarding } from "@/lib/payouts/accounts";
import { canBePaid } from "@/lib/access/payable";
import { db } from "@/lib/db";
import { createCampaign } from "../helpers/factories";

/*
 * Issue 31 item 3, money: an account whose address was never confirmed may be a squatter's. It cannot
 * set up payouts (their bank would receive the owner's events' money), and when the owner takes the
 * account over (the emailed confirmation link, or a Google sign-in with that address) whatever the
 * earlier holder set up that could carry money goes: the payout account and the Stripe customer link.
 * The seam is the squatter's session (the payouts action) and the handover itself.
 */
let cookie: string | null = null;
vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => {
    const list = cookie ? [{ name: "next-auth.session-token", value: cookie }] : [];
    return { get: (n: string) => list.find((c) => c.name === n), getAll: () => list, has: () => !!cookie };
  },
}));

const { confirmEmailAction } = await import("@/app/verify-email/actions");
const { startPayoutOnboardingAction } = await import("@/app/payouts/actions");

const sessionOf = (userId: string) =>
  encode({ token: { sub: userId, sv: 0 }, secret: process.env.NEXTAUTH_SECRET! });

/** Where a redirecting form action sends the browser. */
async function redirectOf(p: Promise<unknown>): Promise<string> {
  try {
    await p;
  } catch (err) {
    const digest = String((err as { digest?: string }).digest ?? "");
    if (digest.startsWith("NEXT_REDIRECT")) return digest.split(";")[2];
    throw err;
  }
  throw new Error("expected a redirect");
}

async function confirmByEmailLink(email: string, password: string) {
  const mail = await db.emailOutbox.findFirstOrThrow({
    where: { toEmail: email, dedupeKey: { startsWith: "confirm-email:" } },
    orderBy: { createdAt: "desc" },
  });
  const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
  return confirmEmailAction({ token, password, passwordConfirm: password });
}

/** What a squatter could have set up before issue 31's gate: a ready payout account, a Stripe customer, a paid event with a transfer. */
async function squatterMoneySetup(userId: string) {
  const accountId = `acct_demo_squat_${userId.slice(-8)}`;
  await db.payoutAccount.create({ data: { userId, provider: "demo", accountId, status: "ready" } });
  await db.user.update({
    where: { id: userId },
    data: { stripeCustomerId: `cus_squat_${userId.slice(-8)}` },
  });
  const event = await createCampaign({ creatorId: userId, ticketPriceCents: 2000 });
  const payout = await db.payout.create({
    data: {
      campaignId: event.id,
      seq: 1,
      kind: "transfer",
      amountCents: 1912n,
      accountId,
      status: "succeeded",
    },
  });
  expect(await canBePaid(db, userId)).toBe(true);
  return { accountId, event, payout };
}

async function expectMoneySetupGone(userId: string, setup: Awaited<ReturnType<typeof squatterMoneySetup>>) {
  expect(await db.payoutAccount.findUnique({ where: { userId } })).toBeNull();
  expect(await canBePaid(db, userId)).toBe(false);
  expect((await db.user.findUniqueOrThrow({ where: { id: userId } })).stripeCustomerId).toBeNull();
  // the money record and the event stay as they were (the event is the account's)
  expect(await db.payout.findUniqueOrThrow({ where: { id: setup.payout.id } })).toMatchObject({
    accountId: setup.accountId,
    status: "succeeded",
  });
  expect(await db.campaign.findUniqueOrThrow({ where: { id: setup.event.id } })).toMatchObject({
    creatorId: userId,
  });
}

beforeEach(() => {
  cookie = null;
});

describe("payouts need a confirmed address, and a handover drops the earlier holder's money setup", () => {
  it("an unconfirmed account's session cannot start payout onboarding; once confirmed it can", async () => {
    const squat = await signUp({ email: "payout-squat@example.test", password: "squatter-pass-71" });
    cookie = await sessionOf(squat.id);
    expect(await redirectOf(startPayoutOnboardingAction())).toBe("/payouts?error=unconfirmed");
    await expect(startPayoutOnboarding(squat)).rejects.toMatchObject({
      code: "FORBIDDEN",
      message: PAYOUT_TEXTS.unconfirmed,
    });
    expect(await db.payoutAccount.count({ where: { userId: squat.id } })).toBe(0);

    // the owner confirms (and signs in again: confirming ended the earlier sessions)
    expect(await confirmByEmailLink("payout-squat@example.test", "owners-own-pass-82")).toMatchObject({
      ok: true,
    });
    cookie = await encode({
      token: { sub: squat.id, sv: 1 },
      secret: process.env.NEXTAUTH_SECRET!,
    });
    expect(await redirectOf(startPayoutOnboardingAction())).toMatch(/\/payouts\/demo\?account=acct_demo_/);
    expect(await db.payoutAccount.count({ where: { userId: squat.id } })).toBe(1);
  });

  it("the owner's confirmation removes the squatter's payout account and Stripe customer, not the money records", async () => {
    const squat = await signUp({ email: "payout-squat2@example.test", password: "squatter-pass-71" });
    const setup = await squatterMoneySetup(squat.id);
    expect(await confirmByEmailLink("payout-squat2@example.test", "owners-own-pass-82")).toMatchObject({
      ok: true,
    });
    await expectMoneySetupGone(squat.id, setup);
  });

  it("the owner's Google sign-in joining the account removes them too", async () => {
    const squat = await signUp({ email: "payout-squat3@example.test", password: "squatter-pass-71" });
    const setup = await squatterMoneySetup(squat.id);
    // NextAuth linked the owner's Google account (same, Google-verified address) to the account
    await authOptions().events!.linkAccount!({
      user: { id: squat.id, email: squat.email },
      account: { type: "oauth", provider: "google", providerAccountId: "g-payout-owner" },
      profile: { email: squat.email },
    } as never);
    await expectMoneySetupGone(squat.id, setup);
  });

  it("an old confirmation link used after a Google sign-in confirmed the address keeps the owner's payout account", async () => {
    const user = await signUp({ email: "payout-owner@example.test", password: "first-pass-55" });
    await authOptions().events!.linkAccount!({
      user: { id: user.id, email: user.email },
      account: { type: "oauth", provider: "google", providerAccountId: "g-payout-owner2" },
      profile: { email: user.email },
    } as never);
    await authOptions().events!.signIn!({
      user: { id: user.id, email: user.email },
      account: { type: "oauth", provider: "google" },
      profile: { email: user.email },
    } as never);
    await startPayoutOnboarding(user);
    await db.user.update({ where: { id: user.id }, data: { stripeCustomerId: "cus_owner_1" } });
    expect(await confirmByEmailLink("payout-owner@example.test", "owners-own-pass-82")).toMatchObject({
      ok: true,
    });
    expect(await db.payoutAccount.count({ where: { userId: user.id } })).toBe(1);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).stripeCustomerId).toBe(
      "cus_owner_1",
    );
  });
});
