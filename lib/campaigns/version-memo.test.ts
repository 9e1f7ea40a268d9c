import { describe, expect, it, vi } from "vitest";
import { versionMemo } from "@/lib/campaigns/version-memo";

const v1 = new Date("2026-11-27T01:00:00.000Z");
const v2 = new Date("2026-11-27T01:00:00.001Z");

describe("versionMemo (issue 35: an event's heavy reads keyed by its version)", () => {
  it("reads once per event, version and arguments", async () => {
    const memo = versionMemo<number>();
    const load = vi.fn(async () => 1);
    await memo({ campaignId: "c1", version: v1, args: "10:0" }, load);
    await memo({ campaignId: "c1", version: v1, args: "10:0" }, load);
    expect(load).toHaveBeenCalledTimes(1);
    await memo({ campaignId: "c1", version: v1, args: "10:10" }, load);
    await memo({ campaignId: "c2", version: v1, args: "10:0" }, load);
    expect(load).toHaveBeenCalledTimes(3);
  });

  it("a new version is a new key: the old entry is never served for it", async () => {
    const memo = versionMemo<string>();
    expect(await memo({ campaignId: "c1", version: v1 }, async () => "old")).toBe("old");
    expect(await memo({ campaignId: "c1", version: v2 }, async () => "new")).toBe("new");
    expect(await memo({ campaignId: "c1", version: v2 }, async () => "other")).toBe("new");
  });

  it("without a version it always reads", async () => {
    const memo = versionMemo<number>();
    const load = vi.fn(async () => 1);
    await memo({ campaignId: "c1", version: null }, load);
    await memo({ campaignId: "c1", version: undefined }, load);
    expect(load).toHaveBeenCalledTimes(2);
    expect(memo.size()).toBe(0);
  });

  it("does not keep a failed read", async () => {
    const memo = versionMemo<number>();
    await expect(
      memo({ campaignId: "c1", version: v1 }, () => Promise.reject(new Error("db down"))),
    ).rejects.toThrow("db down");
    expect(await memo({ campaignId: "c1", version: v1 }, async () => 2)).toBe(2);
  });

  it("holds at most `max` entries, dropping the least recently used", async () => {
    const memo = versionMemo<string>(2);
    await memo({ campaignId: "a", version: v1 }, async () => "a");
    await memo({ campaignId: "b", version: v1 }, async () => "b");
    await memo({ campaignId: "a", version: v1 }, async () => "a2"); // a used again
    await memo({ campaignId: "c", version: v1 }, async () => "c"); // drops b
    expect(memo.size()).toBe(2);
    expect(await memo({ campaignId: "a", version: v1 }, async () => "a3")).toBe("a");
    expect(await memo({ campaignId: "b", version: v1 }, async () => "b2")).toBe("b2");
  });
});
