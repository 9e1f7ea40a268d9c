/** Fixture and checks shared by the entry-point fuzz suites. */
import { expect } from "vitest";
import { db } from "@/lib/db";
import { confirmDemoSetup, createDemoSetupSecret } from "@/lib/payments/demo-gateway";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";
import { fingerprint } from "@/tests/security/harness";
import { isClearMessage } from "@/tests/security/arbitraries";

export async function fuzzFixture() {
  const user = await createUser();
  const creator = await createUser();
  const backer = await createUser();
  const admin = await createUser({ isAdmin: true });
  const campaign = await createCampaign({ creatorId: creator.id, goal: 50 });
  const paid = await createCampaign({ creatorId: creator.id, goal: 1, ticketPriceCents: 2500, status: "charged" });
  const pending = await createCampaign({ creatorId: creator.id, approvalStatus: "pending" });
  const pledge = await createPledge(paid.id, backer.id);
  const r = await confirmDemoSetup(backer.id, { clientSecret: createDemoSetupSecret(backer.id), cardNumber: "4242424242424242", expMonth: "12", expYear: "2034", cvc: "123" });
  if (!r.ok) throw new Error(r.error.message);
  const card = r.setupIntent.payment_method;
  await db.pledge.update({ where: { id: pledge.id }, data: { chargeStatus: "failed", chargeAttempts: 1, paymentMethodId: card } });
  const comment = await db.comment.create({ data: { campaignId: campaign.id, authorId: user.id, text: "Looking forward" } });
  const draft = await db.campaignDraft.create({ data: { creatorId: creator.id, title: "Draft" } });
  const known = [campaign.id, paid.id, pending.id, pledge.id, comment.id, draft.id, card, user.id, "approved", "rejected", "crowdfund", "paction", "immediate"];
  return { user, creator, backer, admin, campaign, paid, pending, pledge, comment, draft, card, known };
}
export type FuzzFixture = Awaited<ReturnType<typeof fuzzFixture>>;

/**
 * Tracks the database across a property run: a rejected call must leave it exactly as the last
 * accepted call left it (one fingerprint per run instead of two).
 */
export function writeGuard() {
  let last: Record<string, string> | undefined;
  return {
    async start() {
      last = await fingerprint();
    },
    async accepted() {
      last = await fingerprint();
    },
    async rejected(what: string) {
      expect(await fingerprint(), `${what} was rejected but changed the database`).toEqual(last);
    },
  };
}

/** A route handler's answer to hostile input: never 5xx; a 4xx carries a clear error message. */
export async function checkResponse(res: Response, what: string): Promise<"accepted" | "rejected"> {
  expect(res.status, `${what} answered ${res.status}`).toBeLessThan(500);
  if (res.status < 400) return "accepted";
  const text = await res.text();
  let message: unknown;
  try {
    message = JSON.parse(text)?.error?.message ?? JSON.parse(text)?.error;
  } catch {
    message = text;
  }
  expect(isClearMessage(message), `${what}: unclear ${res.status} message ${JSON.stringify(message)?.slice(0, 200)}`).toBe(true);
  return "rejected";
}

/** A server action's answer: an ActionResult; a failure carries a clear message. */
export function checkActionResult(result: unknown, what: string): "accepted" | "rejected" {
  expect(result, `${what} must return an ActionResult`).toEqual(expect.objectContaining({ ok: expect.any(Boolean) }));
  const r = result as { ok: boolean; error?: unknown };
  if (r.ok) return "accepted";
  expect(isClearMessage(r.error), `${what}: unclear message ${JSON.stringify(r.error)?.slice(0, 200)}`).toBe(true);
  return "rejected";
}
