import { db } from "@/lib/db";
import { createCampaign, createUser } from "@/tests/helpers/factories";
import type { CardBehavior, FakeStripe } from "@/tests/fake-stripe/server";

let seq = 0;

/**
 * A paid event past its threshold (status `funded`) with `pledges` backers, each with a Stripe
 * customer and a card saved at the fake Stripe (`behaviors[i]` or "ok").
 */
export async function fundedPaidCampaign(
  fake: FakeStripe,
  opts: {
    pledges: number;
    goal?: number;
    priceCents?: number;
    behaviors?: (i: number) => CardBehavior;
    status?: "funded" | "pending" | "charging";
  },
) {
  const creator = await createUser();
  const campaign = await createCampaign({
    creatorId: creator.id,
    goal: opts.goal ?? Math.min(opts.pledges, 100),
    ticketPriceCents: opts.priceCents ?? 2500,
    status: opts.status ?? "funded",
  });
  const run = `${Date.now().toString(36)}${++seq}`;
  const users = Array.from({ length: opts.pledges }, (_, i) => ({
    id: `u_${run}_${i}`,
    email: `backer-${run}-${i}@example.test`,
    name: `Backer ${i}`,
    stripeCustomerId: `cus_${run}_${i}`,
  }));
  await db.user.createMany({ data: users });
  const pledges = users.map((u, i) => ({
    id: `p_${run}_${i}`,
    campaignId: campaign.id,
    userId: u.id,
    contributor: u.name,
    amountCents: opts.priceCents ?? 2500,
    paymentMethodId: fake.addPaymentMethod(u.stripeCustomerId, opts.behaviors?.(i) ?? "ok"),
    createdAt: new Date(Date.now() - (opts.pledges - i) * 1000),
  }));
  await db.pledge.createMany({ data: pledges });
  await db.campaign.update({
    where: { id: campaign.id },
    data: { committedCount: opts.pledges, pledgeCount: opts.pledges },
  });
  return { creator, campaign, users, pledges };
}

/** Pledge ids charged successfully more than once at the fake Stripe (executed, not replayed). */
export function duplicates(fake: FakeStripe, pledgeIds: string[]) {
  return pledgeIds.filter(
    (id) => (fake.state.chargesByPledge.get(id) ?? []).filter((c) => c.status === "succeeded").length > 1,
  );
}

export type StripeBacker = { id: string; email: string; name: string; isAdmin: false; card: string };

/** `n` backers, each a Stripe customer with a saved card (`behavior(i)`, else "ok") at the fake Stripe. */
export async function stripeBackers(
  fake: FakeStripe,
  n: number,
  behavior: (i: number) => CardBehavior = () => "ok",
): Promise<StripeBacker[]> {
  const run = `${Date.now().toString(36)}b${++seq}`;
  const rows = Array.from({ length: n }, (_, i) => ({
    id: `u_${run}_${i}`,
    email: `backer-${run}-${i}@example.test`,
    name: `Backer ${i}`,
    stripeCustomerId: `cus_${run}_${i}`,
  }));
  await db.user.createMany({ data: rows });
  return rows.map((u, i) => ({
    id: u.id,
    email: u.email,
    name: u.name,
    isAdmin: false as const,
    card: fake.addPaymentMethod(u.stripeCustomerId, behavior(i)),
  }));
}

/**
 * Charges until no member is left uncharged, as the job and the sweeper would (jobs are off in
 * tests). `runCharging` is passed in: lib/charging is imported after the test set its environment.
 */
export async function chargeUntilSettled(
  runCharging: (campaignId: string) => Promise<unknown>,
  campaignId: string,
) {
  for (let i = 0; i < 10; i++) {
    await runCharging(campaignId);
    const open = await db.pledge.count({
      where: {
        campaignId,
        withdrawnAt: null,
        waitlistedAt: null,
        NOT: { memberSince: null },
        chargeStatus: { in: ["none", "processing"] },
      },
    });
    if (open === 0) return;
  }
}
