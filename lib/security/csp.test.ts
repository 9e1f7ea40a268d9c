import { describe, expect, it } from "vitest";
import { buildCsp, isCachedRoute } from "@/lib/security/csp";

const directive = (csp: string, name: string) =>
  csp.split("; ").find((d) => d.startsWith(`${name} `) || d === name);

describe("Content-Security-Policy", () => {
  it("allows only nonce-carrying scripts on dynamic pages, and never framing", () => {
    const csp = buildCsp({ nonce: "abc123", stripe: false, dev: false });
    expect(directive(csp, "script-src")).toBe("script-src 'self' 'nonce-abc123' 'strict-dynamic'");
    expect(directive(csp, "frame-ancestors")).toBe("frame-ancestors 'none'");
    expect(directive(csp, "object-src")).toBe("object-src 'none'");
    expect(csp).not.toContain("unsafe-eval");
    expect(csp).not.toContain("stripe.com");
  });

  it("names Stripe's domains only when Stripe is enabled", () => {
    const csp = buildCsp({ nonce: "n", stripe: true, dev: false });
    expect(directive(csp, "script-src")).toContain("https://js.stripe.com");
    expect(directive(csp, "frame-src")).toContain("https://hooks.stripe.com");
    expect(directive(csp, "connect-src")).toContain("https://api.stripe.com");
    expect(directive(buildCsp({ nonce: "n", stripe: false, dev: false }), "frame-src")).toBe(
      "frame-src 'none'",
    );
  });

  it("uses no nonce on cached routes", () => {
    expect(isCachedRoute("/roadmap")).toBe(true);
    expect(isCachedRoute("/campaign/x")).toBe(false);
    expect(directive(buildCsp({ stripe: false, dev: false }), "script-src")).toBe(
      "script-src 'self' 'unsafe-inline'",
    );
  });
});
