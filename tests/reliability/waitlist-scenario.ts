import { db } from "@/lib/db";
import { killApp, sleep, startApp, type ScenarioResult } from "@/tests/reliability/harness";
import type { Ctx } from "@/tests/reliability/scenarios";

/**
 * 8. kill -9 during promotions after a tip (issue 20). Forty tipped, charged events are full
 * (capacity 20, 20 in, 15 waiting; every seventh waiting card declines). Each capacity is raised
 * to 30: the waitlist pass (every minute) promotes the first in line into the ten new places, in
 * one transaction per event, and the charge job charges each promoted card off-session; a declined
 * promotion goes back in line and the place moves on. The app is killed at about a third of the
 * promotion charges, restarted, and left to finish. Every event must end with exactly 30 in, each
 * promoted backer charged exactly once at the fake Stripe, the declined ones charged never, and no
 * event over its capacity at any moment.
 */
const EVENTS = 40;
const IN = 20;
const WAITING = 15;
const RAISED = 30;
const PRICE = 1800;

export async function killDuringPromotions(ctx: Ctx): Promise<ScenarioResult> {
  const t0 = Date.now();
  const failures: string[] = [];
  const run = `${Date.now().toString(36)}wl`;
  const creator = await db.user.create({
    data: { email: `organizer-${run}@example.test`, name: `Organizer ${run}` },
  });
  const campaignIds: string[] = [];
  const waitingIds: string[] = [];
  const declines = new Set<string>();
  for (let e = 0; e < EVENTS; e++) {
    const campaign = await db.campaign.create({
      data: {
        title: `Full event ${run} ${e}`,
        description: "A full paid event used by the fault-injection suite.",
        goal: 10,
        capacity: IN,
        ticketPriceCents: PRICE,
        deadline: new Date(Date.now() + 2 * 86_400_000),
        startsAt: new Date(Date.now() + 5 * 86_400_000),
        approvalStatus: "approved",
        status: "charged",
        chargeType: "paid",
        fundedAt: new Date(),
        chargedAt: new Date(),
        pactType: "paction",
        creatorId: creator.id,
        creatorEmail: creator.email,
      },
    });
    campaignIds.push(campaign.id);
    const users = Array.from({ length: IN + WAITING }, (_, i) => ({
      id: `u_${run}_${e}_${i}`,
      email: `backer-${run}-${e}-${i}@example.test`,
      name: `Backer ${e}.${i}`,
      stripeCustomerId: `cus_${run}_${e}_${i}`,
    }));
    await db.user.createMany({ data: users });
    await db.pledge.createMany({
      data: users.map((u, i) => {
        const waiting = i >= IN;
        const id = `p_${run}_${e}_${i}`;
        const declined = waiting && (i - IN) % 7 === 3;
        if (waiting) waitingIds.push(id);
        if (declined) declines.add(id);
        return {
          id,
          campaignId: campaign.id,
          userId: u.id,
          contributor: u.name,
          amountCents: PRICE,
          paymentMethodId: ctx.fake.addPaymentMethod(u.stripeCustomerId, declined ? "generic_decline" : "ok"),
          createdAt: new Date(Date.now() - (IN + WAITING - i) * 1000),
          ...(waiting
            ? { waitlistedAt: new Date() }
            : {
                charged: true,
                verified: true,
                chargeStatus: "succeeded" as const,
                chargeType: "paid" as const,
                chargedAt: new Date(),
                paymentIntentId: `pi_seeded_${run}_${e}_${i}`,
              }),
        };
      }),
    });
    await db.campaign.update({
      where: { id: campaign.id },
      data: {
        committedCount: IN,
        pledgeCount: IN,
        waitlistCount: WAITING,
        totalCharged: IN,
        totalChargedCents: IN * PRICE,
      },
    });
  }
  // Ten places open on every event at once.
  await db.campaign.updateMany({ where: { id: { in: campaignIds } }, data: { capacity: RAISED } });

  const executed = () =>
    waitingIds.reduce((n, id) => n + (ctx.fake.state.chargesByPledge.get(id)?.length ?? 0), 0);
  // never more in than the capacity, sampled all along (the database's CHECK holds the counter)
  let overCapacity = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const rows = await db.pledge
        .groupBy({
          by: ["campaignId"],
          where: { campaignId: { in: campaignIds }, withdrawnAt: null, waitlistedAt: null },
          _count: true,
        })
        .catch(() => []);
      for (const r of rows) if (r._count > RAISED) overCapacity++;
      await sleep(100);
    }
  })();

  // The pass runs every minute: wait until a third of the promotions are charged.
  const promotions = EVENTS * (RAISED - IN);
  const killAt = Math.floor(promotions * 0.3);
  const deadline = Date.now() + 150_000;
  while (executed() < killAt) {
    if (Date.now() > deadline) {
      sampling = false;
      await sampler;
      throw new Error(`promotions never reached ${killAt} charges (${executed()})`);
    }
    await sleep(20);
  }
  await killApp(ctx.app);
  const chargedAtKill = executed();
  const promotedAtKill = await db.pledge.count({
    where: { campaignId: { in: campaignIds }, promotedAt: { not: null } },
  });
  if (chargedAtKill >= promotions) failures.push("the kill came after the promotions finished");
  // As in scenario 1: the killed claims stand in for ones older than STALE_CLAIM_MS.
  await db.$executeRaw`UPDATE "Pledge" SET "chargeClaimedAt" = now() - interval '10 minutes'
    WHERE "campaignId" = ANY(${campaignIds}) AND "chargeStatus" = 'processing'`;

  ctx.app = await startApp(ctx.appEnv, { port: ctx.port, logDir: ctx.logDir, reuseBuild: true });
  const done = Date.now() + 240_000;
  const settledIn = async () =>
    db.pledge.count({
      where: {
        campaignId: { in: campaignIds },
        withdrawnAt: null,
        waitlistedAt: null,
        chargeStatus: "succeeded",
      },
    });
  while ((await settledIn()) < EVENTS * RAISED) {
    if (Date.now() > done) {
      failures.push(
        `promotions did not finish within 4 minutes of the restart (${await settledIn()} in and paid)`,
      );
      break;
    }
    await sleep(500);
  }
  sampling = false;
  await sampler;

  let duplicates = 0;
  let lost = 0;
  const rows = await db.pledge.findMany({
    where: { id: { in: waitingIds } },
    select: {
      id: true,
      campaignId: true,
      chargeStatus: true,
      charged: true,
      waitlistedAt: true,
      paymentIntentId: true,
    },
  });
  for (const p of rows) {
    const charges = ctx.fake.state.chargesByPledge.get(p.id) ?? [];
    const succeeded = charges.filter((c) => c.status === "succeeded");
    if (succeeded.length > 1) duplicates++;
    if (declines.has(p.id)) {
      // declined at its promotion (or never reached): never charged, back in line
      if (succeeded.length > 0 || p.charged || p.waitlistedAt === null) lost++;
    } else if (p.waitlistedAt === null) {
      // promoted: paid exactly once, and recorded
      if (succeeded.length !== 1 || !p.charged || p.paymentIntentId !== succeeded[0].id) lost++;
    } else if (charges.length > 0) {
      lost++; // still waiting, yet charged
    }
  }
  // The totals follow the last success (the run finalizes after recording it): wait for them too.
  const wrong = async () => {
    const events = await db.campaign.findMany({
      where: { id: { in: campaignIds } },
      select: { id: true, committedCount: true, waitlistCount: true, totalCharged: true, pledgeCount: true },
    });
    return events.filter(
      (c) =>
        c.committedCount !== RAISED ||
        c.pledgeCount !== RAISED ||
        c.totalCharged !== RAISED ||
        c.waitlistCount !== WAITING - (RAISED - IN),
    );
  };
  let wrongEvents = await wrong();
  const totalsBy = Date.now() + 90_000;
  while (wrongEvents.length > 0 && Date.now() < totalsBy) {
    await sleep(500);
    wrongEvents = await wrong();
  }
  const wrongCounts = wrongEvents.length;
  if (wrongCounts > 0)
    console.log(`[reliability] scenario 8 counters: ${JSON.stringify(wrongEvents.slice(0, 3))}`);
  if (wrongCounts > 0) failures.push(`${wrongCounts} events with wrong counters after the promotions`);
  if (overCapacity > 0) failures.push(`${overCapacity} samples saw an event over its capacity`);
  const promoted = rows.filter((p) => p.waitlistedAt === null).length;
  if (promoted !== promotions) failures.push(`${promoted} promoted for ${promotions} places`);
  return {
    name: "8 kill -9 during promotions",
    figures: {
      events: EVENTS,
      places: promotions,
      promoted,
      "declined-at-promotion": rows.filter((p) => declines.has(p.id) && p.chargeStatus !== "none").length,
      "promoted-before-kill": promotedAtKill,
      "charged-before-kill": chargedAtKill,
    },
    duplicates,
    lost,
    failures,
    ms: Date.now() - t0,
  };
}
