import { describe, expect, it } from "vitest";
import { copyNonce, signVersion, verifiedVersion } from "@/lib/cache/signed-path";

// Second layer behind the proxy's 404 for direct /v/ requests (issue 13): the /v/ pages render only
// versions the proxy signed, so a made-up version can neither be rendered nor stored in the cache.
describe("signed cache paths", () => {
  it("verifies what the proxy signed, for that scope only", () => {
    const signed = signVersion("campaign/abcdefghij12", "lx1-2b-o~c");
    expect(verifiedVersion("campaign/abcdefghij12", signed)).toBe("lx1-2b-o~c");
    expect(verifiedVersion("campaign/abcdefghij13", signed)).toBeNull();
    expect(verifiedVersion("home/all/1", signed)).toBeNull();
    const home = signVersion("home/all/1", "member.lx1-2b");
    expect(verifiedVersion("home/all/1", home)).toBe("member.lx1-2b");
  });

  it("refuses unsigned, truncated, altered and swapped versions", () => {
    const signed = signVersion("campaign/abcdefghij12", "lx1-2b-o~m");
    for (const forged of [
      "lx1-2b-o~m",
      "lx1-2b-o~c",
      `${signed.slice(0, -1)}0`,
      signed.replace("~m", "~c"),
      `${signed}00`,
      "_",
      "",
      "x_zz",
    ]) {
      expect(verifiedVersion("campaign/abcdefghij12", forged), forged).toBeNull();
    }
  });

  it("gives each copy its own stable CSP nonce", () => {
    const a = copyNonce("/v/campaign/abcdefghij12/" + signVersion("campaign/abcdefghij12", "a-1-o"));
    expect(copyNonce("/v/campaign/abcdefghij12/" + signVersion("campaign/abcdefghij12", "a-1-o"))).toBe(a);
    expect(copyNonce("/v/campaign/abcdefghij12/" + signVersion("campaign/abcdefghij12", "a-2-o"))).not.toBe(
      a,
    );
    expect(a).toMatch(/^[A-Za-z0-9+/]{24}$/);
  });
});
