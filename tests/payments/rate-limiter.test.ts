import { describe, expect, it } from "vitest";
import { acquireProviderSlot } from "@/lib/payments/rate-limiter";

describe("provider rate limiter (Postgres, shared by every instance)", () => {
  it("never lets more than N calls into any 1-second window, under concurrency", async () => {
    const limit = 5;
    const started = Date.now();
    const times = await Promise.all(
      Array.from({ length: 23 }, async () => {
        const slot = await acquireProviderSlot("test-limiter", limit);
        await slot.release();
        return slot.takenAt;
      }),
    );
    const sorted = times.map((t) => t.getTime()).sort((a, b) => a - b);
    // Strict sliding window: call i and call i+N are at least one window apart.
    for (let i = 0; i + limit < sorted.length; i++)
      expect(sorted[i + limit] - sorted[i]).toBeGreaterThanOrEqual(1000);
    // 23 calls at 5/s need more than 4 seconds…
    expect(Date.now() - started).toBeGreaterThanOrEqual(4000);
    // …and no more than that: each call is let in soon after the window of the call N before it
    // ended. Measured on the slots' own (database) timestamps, and as a median, so a busy machine's
    // slow queries do not decide it; a limiter that waited a window too many would show ≥ 1000 ms.
    const excess = sorted
      .slice(limit)
      .map((t, i) => t - sorted[i] - 1000)
      .sort((a, b) => a - b);
    expect(excess[Math.floor(excess.length / 2)]).toBeLessThan(700);
  }, 30_000);

  it("keeps keys independent", async () => {
    // Every slot of key-a is taken and held (leased for a minute): a shared pool would make key-b wait that long.
    const held = await Promise.all(Array.from({ length: 3 }, () => acquireProviderSlot("key-a", 3)));
    const timeout = new Promise<"blocked">((r) => setTimeout(() => r("blocked"), 20_000).unref());
    const other = Promise.all(Array.from({ length: 3 }, () => acquireProviderSlot("key-b", 3)));
    expect(await Promise.race([other.then(() => "acquired" as const), timeout])).toBe("acquired");
    // …while key-a itself is full: one more call there has to wait.
    const more = acquireProviderSlot("key-a", 3);
    expect(
      await Promise.race([
        more.then(() => "acquired" as const),
        new Promise((r) => setTimeout(() => r("waiting"), 1500)),
      ]),
    ).toBe("waiting");
    await Promise.all([...held, ...(await other)].map((s) => s.release()));
    await (await more).release();
  }, 30_000);

  it("holds a slot while its call runs: the next use waits a full window after the call ended", async () => {
    const first = await acquireProviderSlot("lease", 1);
    await new Promise((r) => setTimeout(r, 1200)); // a slow call, longer than the window
    const t0 = Date.now();
    const waiting = acquireProviderSlot("lease", 1);
    await new Promise((r) => setTimeout(r, 300));
    await first.release();
    const second = await waiting;
    expect(Date.now() - t0).toBeGreaterThanOrEqual(1250);
    await second.release();
  });
});
