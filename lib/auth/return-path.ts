/**
 * Where sign-in and sign-up bring the person back to (issue 18): a path on this site only. Anything
 * else — another origin, a protocol-relative "//host", a backslash trick, an API route, control
 * characters, an over-long value — is refused (null), and the caller falls back to the profile.
 * Pure: the sign-in card, the profile page, the Google callback (lib/auth/options.ts) and the pay
 * link all ask it.
 *
 * Issue 31: the value RETURNED is what is checked, after normalisation. `/.//evil.com`,
 * `/a/..//evil.com` and `/%2e//evil.com` are single-slash paths when received but normalise to
 * `//evil.com`, which a browser follows to another host. So the raw value is checked, normalised,
 * and the result is checked again (and must normalise to itself).
 */
const PROBE = "http://return.invalid";

/** A string that, used as a Location or pushed to the router, stays on this site. */
function isSitePath(path: string): boolean {
  if (!path.startsWith("/") || path.startsWith("//")) return false;
  // "\" is read as "/" by browsers ("/\evil.com" is "//evil.com"); an encoded one may be decoded by a proxy.
  if (path.includes("\\") || /%5c/i.test(path)) return false;
  // tabs and newlines are stripped by URL parsers ("/\t/evil.com" is "//evil.com"): refuse every control character
  if (/[\u0000-\u001f\u007f]/.test(path)) return false;
  // and their encoded forms, which no page of ours needs and a decoding proxy could turn back
  if (/%(?:[01][0-9a-f]|7f)/i.test(path)) return false;
  return true;
}

function normalise(path: string): string | null {
  let url: URL;
  try {
    url = new URL(path, PROBE);
  } catch {
    return null;
  }
  if (url.origin !== PROBE) return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** A path on this site, normalised and checked after normalisation; null for anything else. */
export function safeSitePath(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 500) return null;
  if (!isSitePath(raw)) return null;
  const path = normalise(raw);
  // check what is returned: normalisation may have made "//host" out of a harmless-looking value
  if (path === null || !isSitePath(path) || normalise(path) !== path) return null;
  return path;
}

/** Where to go after signing in: a site path that is neither an API route nor the sign-in page itself. */
export function safeReturnPath(raw: unknown): string | null {
  const path = safeSitePath(raw);
  if (path === null) return null;
  const pathname = path.split(/[?#]/, 1)[0];
  if (pathname.startsWith("/api/") || pathname === "/profile") return null;
  return path;
}

/** The sign-in page's address that brings the person back to `path` afterwards. */
export const signInUrl = (path: string) => `/profile?next=${encodeURIComponent(path)}`;

/** The event page address that reopens the commit dialog once the person is signed in. */
export const commitReturnPath = (campaignId: string) => `/campaign/${campaignId}?commit=1`;
