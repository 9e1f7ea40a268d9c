import { isIP } from "node:net";

type HeaderSource = { get(name: string): string | null } | Record<string, string | string[] | undefined>;

function header(h: HeaderSource, name: string): string | undefined {
  if (typeof (h as { get?: unknown }).get === "function") return (h as { get(n: string): string | null }).get(name) ?? undefined;
  const v = (h as Record<string, string | string[] | undefined>)[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * The client's IP for rate limits: the first hop of X-Forwarded-For, else X-Real-IP. Next's own
 * server sets X-Forwarded-For to the socket address when no proxy does; behind a proxy or load
 * balancer, the proxy must set (overwrite, not append to) X-Forwarded-For, or clients could pick
 * their own rate-limit bucket. Null when no usable address is present: callers then skip the
 * per-IP limit and keep the per-account one.
 */
export function clientIp(h: HeaderSource): string | null {
  const forwarded = header(h, "x-forwarded-for")?.split(",")[0]?.trim();
  let ip = forwarded || header(h, "x-real-ip")?.trim();
  if (!ip) return null;
  // "[2001:db8::1]:443" and "203.0.113.7:51234" → the address alone
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(ip);
  if (bracketed) ip = bracketed[1];
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(ip)) ip = ip.slice(0, ip.lastIndexOf(":"));
  if (ip.toLowerCase().startsWith("::ffff:") && isIP(ip.slice(7)) === 4) ip = ip.slice(7);
  return isIP(ip) ? ip.toLowerCase() : null;
}
