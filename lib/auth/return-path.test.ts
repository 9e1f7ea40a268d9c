import { describe, expect, it } from "vitest";
import { safeReturnPath, signInUrl } from "@/lib/auth/return-path";

describe("safeReturnPath (issue 18)", () => {
  it("keeps a path on this site, with its query and hash", () => {
    expect(safeReturnPath("/campaign/cabc123?commit=1")).toBe("/campaign/cabc123?commit=1");
    expect(safeReturnPath("/pledges/p1/pay#card")).toBe("/pledges/p1/pay#card");
    expect(safeReturnPath("/create-campaign")).toBe("/create-campaign");
  });
  it("refuses anything that could leave the site or loop", () => {
    for (const bad of [
      "https://evil.example/",
      "//evil.example/x",
      "/\\evil.example",
      "\\\\evil.example",
      "javascript:alert(1)",
      "/api/auth/signout",
      "/profile",
      "/x\nSet-Cookie: a=b",
      "",
      "campaign/x",
      "/" + "a".repeat(600),
      42,
      null,
    ])
      expect(safeReturnPath(bad), String(bad)).toBeNull();
  });
  it("checks the value it returns, not the one received (issue 31): nothing normalises to another host", () => {
    const decoded = (s: string) => decodeURIComponent(s);
    for (const bad of [
      "/.//evil.com",
      "/a/..//evil.com",
      "/%2e//evil.com",
      "/%2E//evil.com",
      "/./%2e//evil.com",
      "/a/b/../..//evil.com",
      "/%2e%2e//evil.com",
      "/\\evil.com",
      "/%5cevil.com",
      "/%5Cevil.com",
      "/%5c%5cevil.com",
      "/\t/evil.com",
      "/\n/evil.com",
      "/\r//evil.com",
      "/x%0d%0aSet-Cookie:a=b",
      "javascript:alert(1)",
      "JavaScript:alert(1)",
      "/javascript:alert(1)".slice(1),
      "http://evil.com",
      "https:evil.com",
      "//evil.com",
      "///evil.com",
      "/api/../api/auth/signout",
      "/x/../profile",
    ].map((s) => s.replace(/\\t/g, "\t").replace(/\\n/g, "\n").replace(/\\r/g, "\r")))
      expect(safeReturnPath(bad), JSON.stringify(bad)).toBeNull();
    // the query-string forms a browser sends (?next=%2F.%2F%2Fevil.com) arrive decoded
    for (const encoded of [
      "%2F.%2F%2Fevil.com",
      "%2Fa%2F..%2F%2Fevil.com",
      "%2F%252e%2F%2Fevil.com",
      "%2F%09%2Fevil.com",
      "%2F%5Cevil.com",
    ])
      expect(safeReturnPath(decoded(encoded)), encoded).toBeNull();
  });
  it("whatever it returns is a site path that normalises to itself (property)", () => {
    const alphabet = ["/", ".", "%2e", "%2E", "%5c", "\\", "\t", "a", "evil.com", "?", "#", ":", "%2f", "@"];
    for (let i = 0; i < 20_000; i++) {
      let s = "";
      const n = 1 + Math.floor(Math.random() * 8);
      for (let j = 0; j < n; j++) s += alphabet[Math.floor(Math.random() * alphabet.length)];
      const out = safeReturnPath(s);
      if (out === null) continue;
      expect(
        out.startsWith("/") && !out.startsWith("//") && !out.includes("\\"),
        JSON.stringify([s, out]),
      ).toBe(true);
      const resolved = new URL(out, "https://pactnexus.example");
      expect(resolved.host, JSON.stringify([s, out])).toBe("pactnexus.example");
      expect(safeReturnPath(out), JSON.stringify([s, out])).toBe(out);
    }
  });
  it("keeps ordinary paths that merely contain dots", () => {
    expect(safeReturnPath("/campaign/c1/../c2")).toBe("/campaign/c2");
    expect(safeReturnPath("/a/./b")).toBe("/a/b");
  });
  it("builds the sign-in address with the path encoded", () => {
    expect(signInUrl("/campaign/c1?commit=1")).toBe("/profile?next=%2Fcampaign%2Fc1%3Fcommit%3D1");
  });
});
