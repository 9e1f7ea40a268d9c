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
    for (let i = 0; i + limit < sorted.length; i++) expect(sorted[i + limit] - sorted[i]).toBeGreaterThanOrEqual(1000);
    // …and it does not over-throttle: 23 calls at 5/s need just over 4 seconds.
    const elapsed = Date.now() - started;
    expect(elapsed).toBeGreaterThanOrEqual(4000);
    expect(elapsed).toBeLessThan(8000);
  }, 20_000);

  it("keeps keys independent", async () => {
    const t0 = Date.now();
    await Promise.all([...Array.from({ length: 3 }, () => acquireProviderSlot("key-a", 3)), ...Array.from({ length: 3 }, () => acquireProviderSlot("key-b", 3))]);
    expect(Date.now() - t0).toBeLessThan(1000);
  });

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
