// Charging benchmark (issue 8), run by scripts/bench/scenarios.mjs in its own process:
//   node --conditions=react-server --import tsx scripts/bench/charge-child.mts <pledges> <latencyMs>
// with DATABASE_URL set. It starts the fake Stripe server (tests/fake-stripe) with the given latency
// per call, points the real `stripe` gateway at it, prepares a funded paid event with <pledges>
// backers (each a Stripe customer with a saved card the fake accepts), runs runCharging (the same
// code the charge job runs; concurrency and rate limit from CHARGE_CONCURRENCY / STRIPE_RATE_LIMIT)
// and prints one JSON line of measurements taken AT THE FAKE SERVER (arrival time of each call).
import { startFakeStripe } from "@/tests/fake-stripe/server";

const pledgeCount = Number(process.argv[2] || 2000);
const latencyMs = Number(process.argv[3] || 50);

const fake = await startFakeStripe({ latencyMs });
process.env.STRIPE_SECRET_KEY ||= "sk_test_bench";
process.env.NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY ||= "pk_test_bench";
process.env.STRIPE_API_HOST = fake.url;

const { db, disconnectDb } = await import("@/lib/db");
const { env } = await import("@/lib/env");
const { runCharging } = await import("@/lib/charging/service");

const run = Date.now().toString(36);
const creator = await db.user.create({
  data: { id: `bs_${run}_creator`, email: `bench-charge-${run}@bench.test`, name: "Bench Charge Organizer" },
});
const campaign = await db.campaign.create({
  data: {
    title: "Benchmark paid event (charging)",
    description: "A paid benchmark event past its threshold, charged through the Stripe gateway.",
    goal: 100,
    ticketPriceCents: 2500,
    deadline: new Date(Date.now() + 7 * 24 * 3600_000),
    approvalStatus: "approved",
    status: "funded",
    pactType: "paction",
    attendeesAnonymous: true,
    identityRevelationType: "never",
    creatorId: creator.id,
    creatorEmail: creator.email,
  },
});
const users = Array.from({ length: pledgeCount }, (_, i) => ({
  id: `bs_${run}_${i}`,
  email: `bench-charge-${run}-${i}@bench.test`,
  name: `Bench Backer ${i}`,
  stripeCustomerId: `cus_bench_${run}_${i}`,
}));
await db.user.createMany({ data: users });
const pledgeIds = users.map((_, i) => `bsp_${run}_${i}`);
await db.pledge.createMany({
  data: users.map((u, i) => ({
    id: pledgeIds[i],
    campaignId: campaign.id,
    userId: u.id,
    contributor: u.name,
    amountCents: 2500,
    paymentMethodId: fake.addPaymentMethod(u.stripeCustomerId, "ok"),
    createdAt: new Date(Date.now() - (pledgeCount - i) * 1000),
  })),
});
await db.campaign.update({ where: { id: campaign.id }, data: { committedCount: pledgeCount, pledgeCount } });

fake.reset();
const started = Date.now();
await runCharging(campaign.id);
const wallMs = Date.now() - started;

const arrivals = fake.state.requests.map((r) => r.at).sort((a, b) => a - b);
// Most calls in any 1-second window starting at an arrival (a sliding window over the arrivals).
let maxInWindow = 0;
for (let i = 0, j = 0; i < arrivals.length; i++) {
  while (j < arrivals.length && arrivals[j] - arrivals[i] < 1000) j++;
  maxInWindow = Math.max(maxInWindow, j - i);
}
const executed = [...fake.state.chargesByPledge.entries()].filter(([id]) => id !== "(none)");
const duplicates = executed.filter(
  ([, list]) => list.filter((c) => c.status === "succeeded").length > 1,
).length;
const succeededAtStripe = executed.filter(([, list]) => list.some((c) => c.status === "succeeded")).length;
const [row] = await db.$queryRaw<{ succeeded: number; other: number }[]>`
  SELECT count(*) FILTER (WHERE "chargeStatus" = 'succeeded')::int AS succeeded,
         count(*) FILTER (WHERE "chargeStatus" <> 'succeeded')::int AS other
  FROM "Pledge" WHERE "campaignId" = ${campaign.id}`;
// Pledges not charged, by state and failure code (e.g. a provider or database error under load).
const notCharged = await db.$queryRaw<{ state: string; code: string | null; n: number }[]>`
  SELECT "chargeStatus"::text AS state, "chargeFailureCode" AS code, count(*)::int AS n
  FROM "Pledge" WHERE "campaignId" = ${campaign.id} AND "chargeStatus" <> 'succeeded'
  GROUP BY 1, 2 ORDER BY 3 DESC`;
const final = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id }, select: { status: true } });

const result = {
  pledges: pledgeCount,
  latencyMs,
  concurrency: env().CHARGE_CONCURRENCY,
  rateLimit: env().STRIPE_RATE_LIMIT,
  wallMs,
  stripeCalls: arrivals.length,
  // charge calls per second from the first to the last arrival at the fake (+ one call's latency)
  arrivalSpanMs: arrivals.length ? arrivals[arrivals.length - 1] - arrivals[0] : 0,
  maxInWindow,
  duplicates,
  succeededAtStripe,
  succeededInDb: row.succeeded,
  notSucceededInDb: row.other,
  campaignStatus: final.status,
  notCharged: notCharged.map((r) => `${r.n} ${r.state}${r.code ? ` (${r.code})` : ""}`).join(", "),
};
console.log(`BENCH_RESULT ${JSON.stringify(result)}`);
await fake.close();
await disconnectDb();
process.exit(0);
