import { afterEach, describe, expect, it, vi } from "vitest";
import { databaseReachable, unavailablePage } from "@/lib/health-gate";

const realUrl = process.env.DATABASE_URL!;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

afterEach(() => {
  process.env.DATABASE_URL = realUrl;
  vi.restoreAllMocks();
});

describe("database gate (proxy.ts answers 503 pages while Postgres is unreachable)", () => {
  it("says reachable, notices an outage within its re-check interval, and recovers by itself", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    expect(await databaseReachable()).toBe(true);

    // Postgres gone: a port nothing listens on.
    const dead = new URL(realUrl);
    dead.port = "9";
    process.env.DATABASE_URL = dead.toString();
    await sleep(550);
    expect(await databaseReachable()).toBe(false);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("unreachable"));

    process.env.DATABASE_URL = realUrl;
    await sleep(300);
    expect(await databaseReachable()).toBe(true);
    expect(warn).toHaveBeenCalledWith(expect.stringContaining("reachable again"));
  });

  it("checks at most once per interval however many requests ask", async () => {
    expect(await databaseReachable()).toBe(true); // the gate's pool exists
    const pool = (
      globalThis as unknown as { __pactnexusDbGate: { pool: { query: (sql: string) => Promise<unknown> } } }
    ).__pactnexusDbGate.pool;
    const query = vi.spyOn(pool, "query");
    await sleep(550);
    const answers = await Promise.all(Array.from({ length: 50 }, () => databaseReachable()));
    expect(answers.every((a) => a === true)).toBe(true);
    expect(query).toHaveBeenCalledTimes(1);
    // Within the interval the cached answer is returned synchronously (no query).
    expect(databaseReachable()).toBe(true);
  });

  it("the 503 page carries a message, Retry-After, no caching and its own strict CSP", async () => {
    const res = unavailablePage();
    expect(res.status).toBe(503);
    expect(res.headers.get("retry-after")).toBe("5");
    expect(res.headers.get("cache-control")).toBe("no-store");
    const csp = res.headers.get("content-security-policy")!;
    expect(csp).toMatch(/default-src 'none'/);
    expect(csp).toMatch(/frame-ancestors 'none'/);
    const html = await res.text();
    expect(html).toContain("PactNexus is temporarily unavailable");
    expect(html).toContain("Please try again in a moment.");
    const nonce = /style-src 'nonce-([^']+)'/.exec(csp)![1];
    expect(html).toContain(`<style nonce="${nonce}">`);
  });
});
