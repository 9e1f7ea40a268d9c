import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { checkLimits, consume, countHits, recordHit } from "@/lib/rate-limit/service";
import { allJobs } from "@/lib/all-jobs";

describe("rate limits in Postgres", () => {
  it("lets `limit` actions through in the window and refuses the next with a retry time", async () => {
    const l = { key: `t:${Math.random()}`, limit: 3, windowMs: 60_000 };
    for (let i = 0; i < 3; i++) await consume(l, () => "slow down");
    await expect(consume(l, (ms) => `wait ${Math.ceil(ms / 1000)}s`)).rejects.toThrow(/wait (59|60)s/);
    expect((await countHits(l.key, l.windowMs)).count).toBe(3);
  });

  it("is atomic under concurrency: 20 parallel attempts at a limit of 5 let exactly 5 through", async () => {
    const l = { key: `t:${Math.random()}`, limit: 5, windowMs: 60_000 };
    const results = await Promise.allSettled(Array.from({ length: 20 }, () => consume(l, () => "limited")));
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(5);
    expect(results.filter((r) => r.status === "rejected")).toHaveLength(15);
  });

  it("checks several limits without recording", async () => {
    const a = { key: `a:${Math.random()}`, limit: 1, windowMs: 60_000 };
    const b = { key: `b:${Math.random()}`, limit: 2, windowMs: 60_000 };
    expect((await checkLimits([a, b])).ok).toBe(true);
    await recordHit(a.key);
    expect((await checkLimits([a, b])).ok).toBe(false);
    expect((await countHits(b.key, b.windowMs)).count).toBe(0);
  });

  it("is pruned by an hourly job: hits older than a day go, recent ones stay", async () => {
    const key = `prune:${Math.random()}`;
    await db.rateLimitHit.create({ data: { key, createdAt: new Date(Date.now() - 25 * 3600_000) } });
    await recordHit(key);
    const job = (await allJobs()).find((j) => j.name === "rate-limit-prune")!;
    expect(job.cron).toBe("17 * * * *");
    await job.handler({} as never);
    expect((await countHits(key, 48 * 3600_000)).count).toBe(1);
  });
});
