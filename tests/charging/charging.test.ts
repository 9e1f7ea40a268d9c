import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { duplicates, fundedPaidCampaign } from "@/tests/charging/helpers";

let fake: FakeStripe;
let service: typeof import("@/lib/charging/service");

beforeAll(async () => {
  fake = await startFakeStripe({ latencyMs: 5 });
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000" });
  service = await import("@/lib/charging/service");
});
afterAll(async () => {
  await fake.close();
});

describe("charging a funded paid event (real Stripe SDK against the fake Stripe)", () => {
  it("charges each of 200 pledges exactly once under 200 concurrent charging triggers, and confirms the event", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, {
      pledges: 200,
      goal: 100,
      priceCents: 2500,
    });
    const results = await Promise.all(
      Array.from({ length: 200 }, () => service.runCharging(campaign.id, { concurrency: 2 })),
    );
    const ids = pledges.map((p) => p.id);
    const executed = ids.reduce((n, id) => n + fake.chargeCount(id), 0);
    const dupes = duplicates(fake, ids);
    console.info(
      `[concurrency] pledges=${ids.length} triggers=200 charges at fake Stripe=${executed} duplicates=${dupes.length}`,
    );
    expect(dupes).toEqual([]);
    expect(ids.every((id) => fake.chargeCount(id) === 1)).toBe(true);
    expect(executed).toBe(200);

    const rows = await db.pledge.findMany({ where: { campaignId: campaign.id } });
    expect(
      rows.every(
        (p) =>
          p.charged &&
          p.verified &&
          p.chargeStatus === "succeeded" &&
          p.chargeType === "paid" &&
          p.paymentIntentId?.startsWith("pi_") &&
          p.chargedAt,
      ),
    ).toBe(true);
    expect(rows.every((p) => p.chargeAttempts === 1)).toBe(true);
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(c.status).toBe("charged");
    expect(c.totalCharged).toBe(200);
    expect(c.totalChargedCents).toBe(BigInt(200 * 2500));
    expect(c.chargeType).toBe("paid");
    expect(c.chargedAt).not.toBeNull();
    expect(c.lastStatusUpdate).not.toBeNull();
    // Every concurrent caller reports the campaign's final state once its own run is over.
    const last = results.at(-1)!;
    expect(last.totalFailed).toBe(0);
    expect(new Set(last.successful.map((s) => s.paymentIntentId)).size).toBe(last.successful.length);
    // Each charge carried the pledge's idempotency key for attempt 1.
    const keys = fake.state.requests.filter(
      (r) =>
        r.path === "/v1/payment_intents" &&
        ids.includes(String((r.body.metadata as Record<string, string>)?.pledgeId)),
    );
    expect(
      keys.every(
        (r) =>
          r.idempotencyKey === `pledge-${(r.body.metadata as Record<string, string>).pledgeId}-attempt-1`,
      ),
    ).toBe(true);
    expect(
      keys.every(
        (r) =>
          r.body.off_session === "true" &&
          r.body.confirm === "true" &&
          r.body.currency === "usd" &&
          r.body.amount === "2500",
      ),
    ).toBe(true);
  }, 120_000);

  it("a run interrupted mid-charge is resumed without charging anyone twice or skipping anyone", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, { pledges: 40 });
    const ids = pledges.map((p) => p.id);
    // The "crash": the first 15 charge requests reach Stripe and are executed, but the process never
    // learns the outcome (connection dropped after Stripe processed it, and every retry dropped too).
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    fake.inject({
      match: "POST /v1/payment_intents",
      kind: "drop-after",
      times: 15,
      when: (b) => ids.includes(String((b.metadata as Record<string, string>)?.pledgeId)),
    });
    fake.inject({
      match: "POST /v1/payment_intents",
      kind: "drop-before",
      times: 60,
      when: (b) => ids.includes(String((b.metadata as Record<string, string>)?.pledgeId)),
    });
    await service.runCharging(campaign.id, { concurrency: 4 });
    warn.mockRestore();
    fake.state.faults.length = 0;
    const stuck = await db.pledge.count({ where: { campaignId: campaign.id, chargeStatus: "processing" } });
    expect(stuck).toBeGreaterThan(0);
    // Some claimed pledges never reached Stripe at all (killed between the claim and the request).
    const untouched = ids.filter((id) => fake.chargeCount(id) === 0).slice(0, 3);
    await db.pledge.updateMany({
      where: { id: { in: untouched } },
      data: { chargeStatus: "processing", chargeAttempts: 1, chargeClaimedAt: new Date() },
    });
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("charging");

    // A fresh claim is not taken over...
    await service.runCharging(campaign.id);
    expect(
      await db.pledge.count({ where: { campaignId: campaign.id, chargeStatus: "processing" } }),
    ).toBeGreaterThan(0);
    // ...a stale one is, with the same idempotency key: Stripe replays the original payment.
    await db.pledge.updateMany({
      where: { campaignId: campaign.id, chargeStatus: "processing" },
      data: { chargeClaimedAt: new Date(Date.now() - 10 * 60_000) },
    });
    const summary = await service.runCharging(campaign.id);

    const executed = ids.reduce((n, id) => n + fake.chargeCount(id), 0);
    console.info(
      `[crash-resume] pledges=${ids.length} charges at fake Stripe=${executed} duplicates=${duplicates(fake, ids).length}`,
    );
    expect(duplicates(fake, ids)).toEqual([]);
    expect(ids.every((id) => fake.chargeCount(id) === 1)).toBe(true);
    expect(summary.totalCharged).toBe(40);
    const rows = await db.pledge.findMany({ where: { campaignId: campaign.id } });
    expect(rows.every((p) => p.chargeStatus === "succeeded" && p.chargeAttempts === 1)).toBe(true);
    const replays = fake.state.requests.filter((r) => r.replayed && r.path === "/v1/payment_intents");
    expect(replays.length).toBeGreaterThanOrEqual(15);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("charged");
  }, 60_000);

  it("records declines and authentication_required per pledge, emails the backers, and still confirms the event", async () => {
    const behaviors = [
      "ok",
      "generic_decline",
      "insufficient_funds",
      "authentication_required",
      "expired_card",
      "lost_card",
    ] as const;
    const { campaign, pledges } = await fundedPaidCampaign(fake, {
      pledges: 6,
      goal: 6,
      behaviors: (i) => behaviors[i],
    });
    const summary = await service.runCharging(campaign.id);
    expect(summary.totalCharged).toBe(1);
    expect(summary.totalFailed).toBe(5);
    const byId = new Map(
      (await db.pledge.findMany({ where: { campaignId: campaign.id } })).map((p) => [p.id, p]),
    );
    const state = (i: number) => {
      const p = byId.get(pledges[i].id)!;
      return [p.chargeStatus, p.chargeFailureCode, p.charged];
    };
    expect(state(0)).toEqual(["succeeded", null, true]);
    expect(state(1)).toEqual(["failed", "generic_decline", false]);
    expect(state(2)).toEqual(["failed", "insufficient_funds", false]);
    expect(state(3)).toEqual(["requires_action", "authentication_required", false]);
    expect(state(4)).toEqual(["failed", "expired_card", false]);
    expect(state(5)).toEqual(["failed", "lost_card", false]);
    expect(byId.get(pledges[3].id)!.paymentIntentId).toMatch(/^pi_/);
    const emails = await db.emailOutbox.findMany({
      where: { dedupeKey: { in: pledges.map((p) => `charge-failed:${p.id}:1`) } },
    });
    expect(emails).toHaveLength(5);
    expect(emails.every((e) => e.text.includes("/pay"))).toBe(true);
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([c.status, c.totalCharged, c.totalChargedCents]).toEqual(["charged", 1, 2500n]);

    // A rerun (sweeper, retry) neither charges again nor re-emails.
    const before = pledges.map((p) => fake.chargeCount(p.id));
    await service.runCharging(campaign.id);
    expect(pledges.map((p) => fake.chargeCount(p.id))).toEqual(before);
    expect(
      await db.emailOutbox.count({
        where: { OR: pledges.map((p) => ({ dedupeKey: { startsWith: `charge-failed:${p.id}:` } })) },
      }),
    ).toBe(5);
  });

  it("50 concurrent check-and-charge requests on a campaign at its threshold: one charge per pledge at Stripe", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, {
      pledges: 30,
      goal: 30,
      status: "pending",
    });
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, i) => service.checkAndCharge(campaign.id, null, `203.0.113.${i + 1}`)),
    );
    const ids = pledges.map((p) => p.id);
    const executed = ids.reduce((n, id) => n + fake.chargeCount(id), 0);
    console.info(
      `[check-and-charge] calls=50 pledges=${ids.length} charges at fake Stripe=${executed} duplicates=${duplicates(fake, ids).length}`,
    );
    expect(ids.map((id) => fake.chargeCount(id))).toEqual(ids.map(() => 1));
    expect(results.some((r) => r.totalCharged === 30)).toBe(true);
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([c.status, c.totalCharged, c.fundedAt !== null]).toEqual(["charged", 30, true]);
  }, 60_000);

  it("does nothing for a campaign below its threshold", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, { pledges: 3, goal: 5, status: "pending" });
    const summary = await service.runCharging(campaign.id);
    expect(summary).toEqual({ successful: [], failed: [], totalCharged: 0, totalFailed: 0 });
    expect(pledges.every((p) => fake.chargeCount(p.id) === 0)).toBe(true);
    const checked = await service.checkAndCharge(campaign.id, null);
    expect(checked.totalCharged).toBe(0);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("pending");
  });
});

describe("time budget of HTTP-triggered runs", () => {
  it("stops claiming when the budget is spent and leaves the rest, unclaimed, to the job", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, { pledges: 20 });
    // Each charge takes a full second at Stripe: all 20 at concurrency 2 would need at least 10 s,
    // so returning within 6 s (generous for a loaded machine) shows the run stopped claiming.
    fake.state.latencyMs = 1000;
    const started = Date.now();
    const partial = await service.runCharging(campaign.id, { concurrency: 2, timeBudgetMs: 300 });
    expect(Date.now() - started).toBeLessThan(6000);
    expect(partial.totalCharged).toBeGreaterThan(0);
    expect(partial.totalCharged).toBeLessThan(20);
    expect(await db.pledge.count({ where: { campaignId: campaign.id, chargeStatus: "processing" } })).toBe(0);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("charging");
    fake.state.latencyMs = 5;
    const rest = await service.runCharging(campaign.id);
    expect(rest.totalCharged).toBe(20);
    expect(pledges.every((p) => fake.chargeCount(p.id) === 1)).toBe(true);
    // Claims taken but not charged when the budget ran out were given back as they were: every
    // pledge was charged under its first attempt's key.
    const rows = await db.pledge.findMany({
      where: { campaignId: campaign.id },
      select: { chargeAttempts: true },
    });
    expect(rows.every((r) => r.chargeAttempts === 1)).toBe(true);
  });
});
