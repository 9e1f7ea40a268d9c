import { isIP } from "node:net";

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

/** Set by the thin front server (scripts/lib/front-server.mjs) on every request; a client's own copy is removed there. */
export const CLIENT_IP_HEADER = "x-pactnexus-client-ip";

function header(h: HeaderSource, name: string): string | undefined {
  if (typeof (h as { get?: unknown }).get === "function")
    return (h as { get(n: string): string | null }).get(name) ?? undefined;
  const v = (h as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The client's address for per-address limits: only the one the front server determined (from
 * the socket, or across the TRUST_PROXY hops of X-Forwarded-For) — never a header the client
 * chose. Null only when the app runs without the front server (tests calling handlers directly):
 * callers then keep their per-account limits.
 */
export function clientIp(h: HeaderSource): string | null {
  const ip = header(h, CLIENT_IP_HEADER)?.trim();
  return ip && isIP(ip) ? ip.toLowerCase() : null;
}
