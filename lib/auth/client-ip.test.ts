import { describe, expect, it } from "vitest";
import { clientIp } from "@/lib/auth/client-ip";

describe("clientIp", () => {
  it("takes the first hop of X-Forwarded-For", () => {
    expect(clientIp(new Headers({ "x-forwarded-for": "203.0.113.7, 10.0.0.2, 10.0.0.1" }))).toBe("203.0.113.7");
    expect(clientIp({ "x-forwarded-for": " 2001:DB8::1 , 10.0.0.1" })).toBe("2001:db8::1");
  });

  it("falls back to X-Real-IP, then to nothing", () => {
    expect(clientIp({ "x-real-ip": "198.51.100.4" })).toBe("198.51.100.4");
    expect(clientIp({})).toBeNull();
    expect(clientIp(new Headers())).toBeNull();
  });

  it("strips ports, brackets and the IPv4-mapped prefix", () => {
    expect(clientIp({ "x-forwarded-for": "203.0.113.7:51234" })).toBe("203.0.113.7");
    expect(clientIp({ "x-forwarded-for": "[2001:db8::1]:443" })).toBe("2001:db8::1");
    expect(clientIp({ "x-forwarded-for": "::ffff:127.0.0.1" })).toBe("127.0.0.1");
  });

  it("ignores a value that is not an IP address", () => {
    expect(clientIp({ "x-forwarded-for": "unknown" })).toBeNull();
    expect(clientIp({ "x-forwarded-for": "<script>" , "x-real-ip": "198.51.100.4" })).toBeNull();
  });
});
