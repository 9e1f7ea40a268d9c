import pg from "pg";
import { afterEach, describe, expect, it, vi } from "vitest";
import { campaignVersion, homeVersion } from "@/lib/cache/visitor-version";
import { createCampaign } from "@/tests/helpers/factories";

// Issue 35: the visitors' version lookups are named (prepared) statements, except behind PgBouncer in
// transaction mode before 1.21, where DATABASE_PREPARED_STATEMENTS=false sends them unnamed.

const names = () => {
  const spy = vi.spyOn(pg.Pool.prototype, "query");
  return {
    seen: () => spy.mock.calls.map((c) => (c[0] as { name?: string }).name ?? null),
  };
};

afterEach(() => {
  vi.restoreAllMocks();
  delete process.env.DATABASE_PREPARED_STATEMENTS;
});

describe("the version lookups' statements", () => {
  it("are named by default", async () => {
    const c = await createCampaign();
    const spy = names();
    expect(await homeVersion()).toBeTruthy();
    expect(await campaignVersion(c.id)).toBeTruthy();
    expect(spy.seen()).toEqual(["pn_home_version", "pn_campaign_version_3"]);
  });

  it("are unnamed with DATABASE_PREPARED_STATEMENTS=false, and answer the same", async () => {
    const c = await createCampaign();
    const before = await campaignVersion(c.id);
    process.env.DATABASE_PREPARED_STATEMENTS = "false";
    const spy = names();
    expect(await homeVersion()).toBeTruthy();
    expect(await campaignVersion(c.id)).toBe(before);
    expect(spy.seen()).toEqual([null, null]);
  });
});
