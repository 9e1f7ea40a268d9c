import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The cached copies under /v/ (lib/cache/visitor-version.ts) are reached only through proxy.ts's
 * rewrites. As a second layer behind the proxy's 404 for outside requests, the proxy signs each
 * copy's path and the /v/ pages refuse a path whose signature does not verify, so only versions the
 * proxy computed are ever rendered or stored in the cache (issue 13). The same key also derives
 * the copy's CSP nonce: a cached page cannot carry a per-request nonce, so every copy gets one of
 * its own, fixed for its path — a new version is a new nonce.
 *
 * Dependency-light on purpose: proxy.ts imports it. The key is NEXTAUTH_SECRET (the start script
 * always provides one), separated by purpose.
 */
const SEPARATOR = "_"; // never part of a version (base-36 digits, "-", "~", "member.")

function key(purpose: string): string {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) throw new Error("NEXTAUTH_SECRET is not set");
  return `${purpose}\u0000${secret}`;
}

const mac = (purpose: string, data: string) => createHmac("sha256", key(purpose)).update(data).digest();

/** `version` with its signature for the copy at `/v/<scope>/<version>` (scope: "campaign/<id>" or "home/<filter>/<page>"). */
export function signVersion(scope: string, version: string): string {
  return `${version}${SEPARATOR}${mac("v-path", `${scope}/${version}`).subarray(0, 16).toString("hex")}`;
}

/** The version inside a signed path segment, or null when the signature is missing or wrong. */
export function verifiedVersion(scope: string, signed: string): string | null {
  const at = signed.lastIndexOf(SEPARATOR);
  if (at <= 0) return null;
  const version = signed.slice(0, at);
  const given = Buffer.from(signed.slice(at + 1), "hex");
  const expected = mac("v-path", `${scope}/${version}`).subarray(0, 16);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  return version;
}

/** The CSP nonce of the cached copy at `path` (the signed /v/ path): the same on every request for it. */
export function copyNonce(path: string): string {
  return mac("v-nonce", path).subarray(0, 18).toString("base64");
}
