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
  it("builds the sign-in address with the path encoded", () => {
    expect(signInUrl("/campaign/c1?commit=1")).toBe("/profile?next=%2Fcampaign%2Fc1%3Fcommit%3D1");
  });
});
