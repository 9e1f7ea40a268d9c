import http from "node:http";
import path from "node:path";
import { db } from "@/lib/db";
import {
  killApp,
  postJson,
  root,
  sleep,
  startApp,
  stopApp,
  type ScenarioResult,
} from "@/tests/reliability/harness";
import { audit, executed, paidEvent, settled, type Ctx } from "@/tests/reliability/scenarios";

/**
 * 9. Two instances, one database (issue 35): a second app process from the same build, both with the
 * background jobs on and TRUST_PROXY=1, behind the round-robin balancer of scripts/lib/balancer.mjs.
 * Both charge the same event at once (a check-and-charge through each, and their charge jobs); one of
 * them is killed with -9 in the middle; the survivor finishes through the balancer. Every pledge is
 * charged exactly once at the fake Stripe and recorded once.
 */
export async function twoInstances(ctx: Ctx): Promise<ScenarioResult> {
  const t0 = Date.now();
  const failures: string[] = [];
  const N = 1000;
  const { createBalancer } = (await import(path.join(root, "scripts/lib/balancer.mjs"))) as {
    createBalancer: (ports: number[]) => http.Server;
  };
  const portB = ctx.port + 2;
  const env = (port: number) => ({
    ...ctx.appEnv,
    TRUST_PROXY: "1",
    NEXTAUTH_URL: `http://127.0.0.1:${port}`,
  });
  // instance A again with TRUST_PROXY=1 (a request without X-Forwarded-For still counts the socket's address)
  await stopApp(ctx.app);
  ctx.app = await startApp(env(ctx.port), { port: ctx.port, logDir: ctx.logDir, reuseBuild: true });
  const b = await startApp(env(portB), { port: portB, logDir: ctx.logDir, reuseBuild: true });
  const balancer = createBalancer([ctx.port, portB]);
  const lbPort = ctx.port + 3;
  await new Promise<void>((r) => balancer.listen(lbPort, "127.0.0.1", r));
  const lb = `http://127.0.0.1:${lbPort}`;
  // 50 ms a call at the fake, so the kill lands in the middle of the run, not after it
  const latency = ctx.fake.state.latencyMs;
  ctx.fake.state.latencyMs = 50;
  try {
    const { campaign, pledges } = await paidEvent(ctx, N);
    const ids = pledges.map((p) => p.id);
    const countExecuted = () => ids.reduce((n, id) => n + executed(ctx.fake, id).length, 0);

    // round robin: one call lands on each instance; their charge jobs join in
    const calls = [0, 1].map(() =>
      postJson(lb, "/api/check-and-charge", { campaignId: campaign.id }).catch((e: Error) => e),
    );
    const killAt = Math.floor(N * 0.3);
    const deadline = Date.now() + 120_000;
    while (countExecuted() < killAt) {
      if (Date.now() > deadline)
        throw new Error(`charging never reached ${killAt} charges (${countExecuted()})`);
      await sleep(20);
    }
    await killApp(b);
    const answers = (await Promise.all(calls)).map((r) => (r instanceof Error ? "cut" : String(r.status)));
    const chargedAtKill = countExecuted();
    if (chargedAtKill >= N) failures.push("the kill came after the run finished");
    const inFlight = await db.pledge.count({
      where: { campaignId: campaign.id, chargeStatus: "processing" },
    });
    // B's claims stay `processing` until they are stale (5 minutes): aged here, as the sweeper would find them
    await db.$executeRaw`UPDATE "Pledge" SET "chargeClaimedAt" = now() - interval '10 minutes' WHERE "campaignId" = ${campaign.id} AND "chargeStatus" = 'processing'`;
    // the balancer skips the dead instance (connection refused): the survivor finishes
    const again = await postJson(lb, "/api/check-and-charge", { campaignId: campaign.id });
    if (again.status !== 200) failures.push(`check-and-charge through the balancer answered ${again.status}`);
    if (!(await settled(campaign.id))) failures.push("charging did not finish within 3 minutes of the kill");

    const { duplicates, lost } = await audit(ctx.fake, campaign.id, () => true);
    const after = await db.campaign.findUniqueOrThrow({
      where: { id: campaign.id },
      select: { status: true, totalCharged: true, totalChargedCents: true },
    });
    if (
      after.status !== "charged" ||
      after.totalCharged !== N ||
      Number(after.totalChargedCents) !== N * 2500
    )
      failures.push(
        `campaign ended ${after.status} with ${after.totalCharged} charged / ${after.totalChargedCents} cents`,
      );
    const charges = countExecuted();
    if (charges !== N) failures.push(`${charges} charges executed for ${N} pledges`);
    const rows = await db.moneyMovement.count({
      where: { campaignId: campaign.id, kind: "charge", state: "succeeded" },
    });
    if (rows !== N) failures.push(`${rows} succeeded charge rows for ${N} pledges`);
    return {
      name: "9 two instances, one killed during charging",
      figures: {
        pledges: N,
        charges,
        "charged-before-kill": chargedAtKill,
        "in-flight-at-kill": inFlight,
        "first-calls": answers.join("/"),
        "charge-rows": rows,
      },
      duplicates,
      lost,
      failures,
      ms: Date.now() - t0,
    };
  } finally {
    ctx.fake.state.latencyMs = latency;
    await new Promise((r) => balancer.close(r));
    balancer.closeAllConnections?.();
    await stopApp(b).catch(() => {});
  }
}
