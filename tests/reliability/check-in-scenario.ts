import fs from "node:fs";
import path from "node:path";
import { encode } from "next-auth/jwt";
import { db } from "@/lib/db";
import { chargeIdempotencyKey } from "@/lib/payments/types";
import { hashTicketToken, newTicketCode, newTicketToken, sealTicketToken } from "@/lib/security/ticket-token";
import { killApp, root, sleep, startApp, type ScenarioResult } from "@/tests/reliability/harness";
import type { Ctx } from "@/tests/reliability/scenarios";

/**
 * 11. kill -9 during check-ins with show-up deposits (issue 36). A confirmed paid event with a $10
 * deposit: 500 places, each charged $25 + $10 in one payment at the fake Stripe (seeded as the ledger
 * leaves them: the pledge charged, a ticket money row with the PaymentIntent's id, a deposit row under
 * the charge key + "-deposit") and each with its ticket. The organizer, signed in, scans all 500 tokens
 * through the check-in page's server action over HTTP, 12 doors at once, every tenth ticket at two
 * doors at the same moment. Each check-in refunds its deposit right after the scan (a partial refund).
 * The app is killed (-9) at about a third of the check-ins, restarted; the doors whose request was cut
 * scan again (as the door retries), the rest carry on; the refund sweeper (every minute) finishes what
 * the kill interrupted. The fake Stripe takes 150 ms per request here (refunds are in flight when the
 * kill lands: the suite waits for a claimed, unrecorded one before killing) and drops the answer of
 * five refunds after making them (the app learns nothing: the same key must replay, not refund again).
 * Every ticket must end checked in exactly once, and every deposit refunded exactly once at the fake
 * Stripe, of exactly the deposit, recorded once; no ticket money goes back.
 */
const N = 500;
const PRICE = 2500;
const DEPOSIT = 1000;
const DOORS = 12;
const LATENCY_MS = 150;
const DROPPED = 5;

type Answer = { kind: string } | null;

/** The check-in action's id in the suite's build (its server-reference manifest). */
function checkInActionId(distDir: string): string {
  const file = path.join(root, distDir, "server", "server-reference-manifest.json");
  const manifest = JSON.parse(fs.readFileSync(file, "utf8")) as {
    node: Record<string, { filename?: string; exportedName?: string }>;
  };
  const hit = Object.entries(manifest.node).find(
    ([, v]) => v.exportedName === "checkInAction" && String(v.filename ?? "").endsWith("check-in/actions.ts"),
  );
  if (!hit) throw new Error(`checkInAction not found in ${file}`);
  return hit[0];
}

async function seed(ctx: Ctx, run: string) {
  const organizer = await db.user.create({
    data: { email: `door-${run}@example.test`, name: `Door Organizer ${run}` },
  });
  const now = Date.now();
  const campaign = await db.campaign.create({
    data: {
      title: `Deposit door ${run}`,
      description: "A paid event with a show-up deposit, checked in by the fault-injection suite.",
      goal: N,
      ticketPriceCents: PRICE,
      depositCents: DEPOSIT,
      depositGraceHours: 24,
      deadline: new Date(now - 3600_000),
      startsAt: new Date(now + 2 * 3600_000),
      endsAt: new Date(now + 5 * 3600_000),
      venue: "Reliability Hall",
      area: "Test town",
      approvalStatus: "approved",
      status: "charged",
      chargeType: "paid",
      fundedAt: new Date(now - 3600_000),
      chargedAt: new Date(now - 3600_000),
      pactType: "paction",
      creatorId: organizer.id,
      creatorEmail: organizer.email,
    },
  });
  const users = Array.from({ length: N }, (_, i) => ({
    id: `u_${run}_${i}`,
    email: `attendee-${run}-${i}@example.test`,
    name: `Attendee ${i}`,
    stripeCustomerId: `cus_${run}_${i}`,
  }));
  await db.user.createMany({ data: users });
  const places = users.map((u, i) => {
    const pledgeId = `p_${run}_${i}`;
    // the payment at the fake Stripe: the ticket and the deposit in one PaymentIntent, succeeded
    const pi = `pi_${run}_${i}`;
    ctx.fake.state.paymentIntents.set(pi, {
      id: pi,
      object: "payment_intent",
      amount: PRICE + DEPOSIT,
      currency: "usd",
      customer: u.stripeCustomerId,
      status: "succeeded",
      metadata: { pledgeId, campaignId: campaign.id, attempt: "1" },
    });
    ctx.fake.state.balance += PRICE + DEPOSIT - ctx.fake.feeOf(PRICE + DEPOSIT);
    const token = newTicketToken();
    return { pledgeId, pi, token, userId: u.id, name: u.name, n: i + 1 };
  });
  await db.pledge.createMany({
    data: places.map((p) => ({
      id: p.pledgeId,
      campaignId: campaign.id,
      userId: p.userId,
      contributor: p.name,
      amountCents: PRICE,
      attendeeNumber: p.n,
      charged: true,
      verified: true,
      chargeStatus: "succeeded" as const,
      chargeType: "paid" as const,
      chargeAttempts: 1,
      chargedAt: new Date(now - 3600_000),
      memberSince: new Date(now - 2 * 3600_000),
      paymentIntentId: p.pi,
      processingFeeCents: ctx.fake.feeOf(PRICE + DEPOSIT),
    })),
  });
  // the ledger's rows of each payment: the ticket's part (the payment's id) and the deposit's
  await db.moneyMovement.createMany({
    data: places.flatMap((p) => [
      {
        kind: "charge" as const,
        purpose: "ticket" as const,
        state: "succeeded" as const,
        amountCents: PRICE,
        providerId: p.pi,
        idempotencyKey: chargeIdempotencyKey(p.pledgeId, 1),
        campaignId: campaign.id,
        pledgeId: p.pledgeId,
      },
      {
        kind: "charge" as const,
        purpose: "deposit" as const,
        state: "succeeded" as const,
        amountCents: DEPOSIT,
        idempotencyKey: `${chargeIdempotencyKey(p.pledgeId, 1)}-deposit`,
        campaignId: campaign.id,
        pledgeId: p.pledgeId,
      },
    ]),
  });
  const codes = new Set<string>();
  await db.ticket.createMany({
    data: places.map((p) => {
      let code = newTicketCode();
      while (codes.has(code)) code = newTicketCode();
      codes.add(code);
      return {
        pledgeId: p.pledgeId,
        campaignId: campaign.id,
        tokenHash: hashTicketToken(p.token),
        tokenSealed: sealTicketToken(p.token),
        code,
      };
    }),
  });
  await db.campaign.update({
    where: { id: campaign.id },
    data: {
      committedCount: N,
      pledgeCount: N,
      totalCharged: N,
      totalChargedCents: N * PRICE,
    },
  });
  return { organizer, campaign, places };
}

export async function killDuringCheckIns(ctx: Ctx): Promise<ScenarioResult> {
  const latency = ctx.fake.state.latencyMs;
  ctx.fake.state.latencyMs = LATENCY_MS;
  try {
    return await checkInsAndKill(ctx);
  } finally {
    ctx.fake.state.latencyMs = latency;
  }
}

async function checkInsAndKill(ctx: Ctx): Promise<ScenarioResult> {
  const t0 = Date.now();
  const failures: string[] = [];
  const run = `${Date.now().toString(36)}ci`;
  // the suite seals the tickets as the app does (the holder's copy; the door reads the hash alone)
  process.env.NEXTAUTH_SECRET = ctx.appEnv.NEXTAUTH_SECRET;
  const { organizer, campaign, places } = await seed(ctx, run);
  const actionId = checkInActionId(ctx.appEnv.NEXT_DIST_DIR);
  const cookie = `next-auth.session-token=${await encode({
    token: { sub: organizer.id, email: organizer.email, name: organizer.name },
    secret: ctx.appEnv.NEXTAUTH_SECRET,
  })}`;
  const pis = new Set(places.map((p) => p.pi));
  // made at the provider, the answer lost on the way back
  ctx.fake.inject({
    match: "POST /v1/refunds",
    kind: "drop-after",
    times: DROPPED,
    when: (b) => pis.has(String(b.payment_intent)),
  });
  const refundsOf = () => ctx.fake.state.refunds.filter((r) => pis.has(r.paymentIntent));

  /** One scan at the door: the answer's kind, or null when no answer came (connection cut, 5xx). */
  const scan = async (token: string): Promise<Answer> => {
    try {
      const res = await fetch(`${ctx.app.base}/campaign/${campaign.id}/check-in`, {
        method: "POST",
        headers: {
          cookie,
          "next-action": actionId,
          accept: "text/x-component",
          "content-type": "text/plain;charset=UTF-8",
          origin: ctx.app.base,
        },
        body: JSON.stringify([campaign.id, { token }]),
        signal: AbortSignal.timeout(30_000),
      });
      const body = await res.text();
      if (res.status !== 200) return null;
      const kind = body.match(/"ok":true,"data":\{"kind":"(\w+)"/)?.[1];
      if (kind) return { kind };
      // an error the door shows (never a false "checked in"): an answer, and a failure of the scenario
      if (/"ok":false/.test(body)) return { kind: `refused (${body.match(/"error":"([^"]*)"/)?.[1]})` };
      return null;
    } catch {
      return null;
    }
  };

  // The queue of scans: every tenth ticket is scanned at two doors at once (two entries side by side).
  const queue: { token: string; i: number }[] = [];
  places.forEach((p, i) => {
    queue.push({ token: p.token, i });
    if (i % 10 === 0) queue.push({ token: p.token, i });
  });
  const answers = new Map<number, string[]>();
  let next = 0;
  let cut = 0;
  let restarted: Promise<void> | null = null;
  const door = async () => {
    while (next < queue.length) {
      const item = queue[next++];
      for (let attempt = 1; ; attempt++) {
        const a = await scan(item.token);
        if (a) {
          answers.set(item.i, [...(answers.get(item.i) ?? []), a.kind]);
          break;
        }
        // no answer: the door says so and scans again once the app answers
        cut++;
        if (attempt > 40) {
          failures.push(`ticket ${item.i} got no answer in 40 attempts`);
          break;
        }
        if (restarted) await restarted;
        await sleep(250);
      }
    }
  };
  const doors = Array.from({ length: DOORS }, door);

  // kill -9 once about a third of the tickets are checked in
  const killAt = Math.floor(N * 0.33);
  const deadline = Date.now() + 120_000;
  while ((await db.checkIn.count({ where: { campaignId: campaign.id } })) < killAt) {
    if (Date.now() > deadline) throw new Error(`check-ins never reached ${killAt}`);
    await sleep(15);
  }
  // …at a moment a deposit refund is claimed and not yet recorded (at most 5 s more)
  const claimed = () =>
    db.moneyMovement.count({
      where: { campaignId: campaign.id, kind: "refund", purpose: "deposit", state: "processing" },
    });
  const claimBy = Date.now() + 5_000;
  while ((await claimed()) === 0 && Date.now() < claimBy) await sleep(5);
  await killApp(ctx.app);
  const checkedInAtKill = await db.checkIn.count({ where: { campaignId: campaign.id } });
  const refundedAtKill = refundsOf().length;
  const claimedAtKill = await claimed();
  if (checkedInAtKill >= N) failures.push("the kill came after the check-ins finished");
  restarted = startApp(ctx.appEnv, { port: ctx.port, logDir: ctx.logDir, reuseBuild: true }).then((app) => {
    ctx.app = app;
  });
  await restarted;
  await Promise.all(doors);

  // the refund sweeper (every minute) finishes the refunds the kill interrupted: wait until quiet
  const refundRows = () =>
    db.moneyMovement.findMany({
      where: { campaignId: campaign.id, kind: "refund" },
      select: { pledgeId: true, purpose: true, state: true, amountCents: true, providerId: true },
    });
  const quietBy = Date.now() + 180_000;
  let rows = await refundRows();
  let stable = 0;
  let last = -1;
  while (stable < 6) {
    rows = await refundRows();
    const done = rows.filter((r) => r.purpose === "deposit" && r.state === "succeeded").length;
    const fakeCount = refundsOf().length;
    const settledNow = done === N && fakeCount >= N;
    stable = settledNow && fakeCount === last ? stable + 1 : 0;
    last = fakeCount;
    if (Date.now() > quietBy) {
      failures.push(
        `refunds not settled within 3 minutes of the restart (${done} recorded, ${fakeCount} made)`,
      );
      break;
    }
    await sleep(500);
  }

  // the audit
  const tickets = await db.ticket.findMany({
    where: { campaignId: campaign.id },
    select: { pledgeId: true, checkIn: { select: { id: true } } },
  });
  const checkIns = await db.checkIn.count({ where: { campaignId: campaign.id } });
  const notCheckedIn = tickets.filter((t) => !t.checkIn).length;
  if (checkIns !== N || notCheckedIn > 0)
    failures.push(`${checkIns} check-in rows for ${N} tickets, ${notCheckedIn} tickets without one`);
  const rowsByPledge = new Map<string, typeof rows>();
  for (const r of rows) rowsByPledge.set(r.pledgeId!, [...(rowsByPledge.get(r.pledgeId!) ?? []), r]);
  const refunds = refundsOf();
  const byPi = new Map<string, typeof refunds>();
  for (const r of refunds) byPi.set(r.paymentIntent, [...(byPi.get(r.paymentIntent) ?? []), r]);
  let duplicates = 0;
  let lost = 0;
  let doubleCheckedIn = 0;
  places.forEach((p, i) => {
    const made = byPi.get(p.pi) ?? [];
    if (made.length > 1) duplicates++;
    const recorded = (rowsByPledge.get(p.pledgeId) ?? []).filter(
      (r) => r.purpose === "deposit" && r.state === "succeeded",
    );
    const ok =
      made.length === 1 &&
      made[0].amount === DEPOSIT &&
      recorded.length === 1 &&
      Number(recorded[0].amountCents) === DEPOSIT &&
      recorded[0].providerId === made[0].id;
    if (!ok && made.length <= 1) lost++;
    // two doors, or a retry after the kill, may each hear an answer: only one of them "checked in"
    const said = answers.get(i) ?? [];
    if (said.filter((k) => k === "checked_in").length > 1) doubleCheckedIn++;
    if (said.some((k) => k !== "checked_in" && k !== "already"))
      failures.push(`ticket ${p.n} answered ${said.join(", ")}`);
  });
  if (doubleCheckedIn) failures.push(`${doubleCheckedIn} tickets answered "checked in" twice`);
  const ticketRefunds = rows.filter((r) => r.purpose !== "deposit").length;
  const wrongAmounts = refunds.filter((r) => r.amount !== DEPOSIT).length;
  if (ticketRefunds || wrongAmounts)
    failures.push(
      `${ticketRefunds} ticket refund rows, ${wrongAmounts} refunds of another amount than the deposit`,
    );
  const refundRequests = ctx.fake.state.requests.filter(
    (r) => r.method === "POST" && r.path === "/v1/refunds" && pis.has(String(r.body.payment_intent)),
  );
  const unconsumed = ctx.fake.state.faults.filter((f) => f.left > 0 && f.match === "POST /v1/refunds").length;
  if (unconsumed) failures.push(`${unconsumed} injected refund faults were never hit`);
  const answered = [...answers.values()].flat();
  return {
    name: "11 kill -9 during check-ins",
    figures: {
      tickets: N,
      scans: queue.length,
      "checked-in": checkIns,
      "answers-checked-in": answered.filter((k) => k === "checked_in").length,
      "answers-already": answered.filter((k) => k === "already").length,
      "scans-cut": cut,
      "checked-in-before-kill": checkedInAtKill,
      "refunded-before-kill": refundedAtKill,
      "refund-claims-at-kill": claimedAtKill,
      "refund-answers-dropped": DROPPED,
      refunds: refunds.length,
      "refund-requests": refundRequests.length,
      replays: refundRequests.filter((r) => r.replayed).length,
    },
    duplicates,
    lost,
    failures,
    ms: Date.now() - t0,
  };
}
