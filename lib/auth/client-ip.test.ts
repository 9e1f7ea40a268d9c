import { describe, expect, it } from "vitest";
import { clientIp } from "@/lib/auth/client-ip";
import { clientAddress, normaliseIp } from "../../scripts/lib/front-server.mjs";

describe("clientIp (issue 14: limits use the trusted address only)", () => {
  it("reads the address the front server set, and nothing a client can choose", () => {
    expect(clientIp(new Headers({ "x-pactnexus-client-ip": "203.0.113.7" }))).toBe("203.0.113.7");
    expect(clientIp({ "x-pactnexus-client-ip": "2001:DB8::1" })).toBe("2001:db8::1");
    // (was: the first hop of X-Forwarded-For, else X-Real-IP)
    expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.7" }))).toBeNull();
    expect(clientIp({ "x-real-ip": "198.51.100.4" })).toBeNull();
    expect(clientIp({ "x-pactnexus-client-ip": "garbage" })).toBeNull();
  });
});

describe("the front server's client address", () => {
  it("is the socket's address when no proxy is trusted, whatever X-Forwarded-For says", () => {
    expect(clientAddress("::ffff:198.51.100.9", "203.0.113.7", 0)).toBe("198.51.100.9");
    expect(clientAddress("198.51.100.9", "garbage", 0)).toBe("198.51.100.9");
  });

  it("walks back exactly TRUST_PROXY hops; a forged first entry does not count", () => {
    // one load balancer (the socket) that appended the address it saw
    expect(clientAddress("10.0.0.2", "203.0.113.7", 1)).toBe("203.0.113.7");
    expect(clientAddress("10.0.0.2", "1.2.3.4, 203.0.113.7", 1)).toBe("203.0.113.7");
    // two proxies
    expect(clientAddress("10.0.0.2", "1.2.3.4, 203.0.113.7, 10.0.0.1", 2)).toBe("203.0.113.7");
  });

  it("never yields 'no address': a malformed entry falls back to the nearest trusted one", () => {
    expect(clientAddress("10.0.0.2", "garbage", 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", "", 1)).toBe("10.0.0.2");
    expect(clientAddress("10.0.0.2", undefined, 3)).toBe("10.0.0.2");
  });

  it("normalises ports, brackets and the IPv4-mapped prefix", () => {
    expect(normaliseIp("203.0.113.7:51234")).toBe("203.0.113.7");
    expect(normaliseIp("[2001:db8::1]:443")).toBe("2001:db8::1");
    expect(normaliseIp("::ffff:127.0.0.1")).toBe("127.0.0.1");
    expect(normaliseIp("<script>")).toBeNull();
  });
});
