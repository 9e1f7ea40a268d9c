import { spawn } from "node:child_process";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { duplicates, fundedPaidCampaign } from "@/tests/charging/helpers";

let fake: FakeStripe;

beforeAll(async () => {
  fake = await startFakeStripe({ latencyMs: 60 });
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000" });
});
afterAll(async () => {
  await fake.close();
});

const root = path.resolve(__dirname, "../..");

describe("a charging process killed mid-run (SIGKILL)", () => {
  it("is resumed by another run: every pledge charged exactly once, none skipped", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, { pledges: 60 });
    const ids = pledges.map((p) => p.id);
    const child = spawn(
      process.execPath,
      [
        "--conditions=react-server",
        "--import",
        "tsx",
        path.join(root, "tests/charging/crash-child.mts"),
        campaign.id,
      ],
      {
        cwd: root,
        env: { ...process.env, JOBS_ENABLED: "false" },
        stdio: ["ignore", "ignore", "pipe"],
      },
    );
    let stderr = "";
    child.stderr.on("data", (d) => (stderr += d));
    const exited = new Promise<number | null>((r) => child.on("exit", (code) => r(code)));

    // Kill it once it has charged some pledges but long before it could finish.
    const deadline = Date.now() + 30_000;
    while (ids.reduce((n, id) => n + fake.chargeCount(id), 0) < 12) {
      if (Date.now() > deadline) throw new Error(`the child never charged: ${stderr}`);
      if (child.exitCode !== null) throw new Error(`the child exited early (${child.exitCode}): ${stderr}`);
      await new Promise((r) => setTimeout(r, 10));
    }
    child.kill("SIGKILL");
    await exited;

    const chargedBeforeCrash = ids.filter((id) => fake.chargeCount(id) > 0).length;
    const states = await db.pledge.groupBy({
      by: ["chargeStatus"],
      where: { campaignId: campaign.id },
      _count: true,
    });
    const count = (s: string) => states.find((x) => x.chargeStatus === s)?._count ?? 0;
    // The crash left work in every state: recorded, claimed-but-unrecorded, untouched.
    expect(count("processing")).toBeGreaterThan(0);
    expect(count("none")).toBeGreaterThan(0);
    expect(chargedBeforeCrash).toBeLessThan(60);

    // The sweeper's next run, once the dead process's claims are stale.
    await db.pledge.updateMany({
      where: { campaignId: campaign.id, chargeStatus: "processing" },
      data: { chargeClaimedAt: new Date(Date.now() - 10 * 60_000) },
    });
    const { runCharging } = await import("@/lib/charging/service");
    const summary = await runCharging(campaign.id);

    const executed = ids.reduce((n, id) => n + fake.chargeCount(id), 0);
    const replayed = fake.state.requests.filter((r) => r.replayed && r.path === "/v1/payment_intents").length;
    console.info(
      `[sigkill-resume] pledges=60 charged before kill=${chargedBeforeCrash} unrecorded claims=${count("processing")} charges at fake Stripe=${executed} replays=${replayed} duplicates=${duplicates(fake, ids).length}`,
    );
    expect(duplicates(fake, ids)).toEqual([]);
    expect(ids.map((id) => fake.chargeCount(id))).toEqual(ids.map(() => 1));
    expect(summary.totalCharged).toBe(60);
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([c.status, c.totalCharged]).toEqual(["charged", 60]);
  }, 90_000);
});
