/**
 * Where sign-in and sign-up bring the person back to (issue 18): a path on this site only. Anything
 * else — another origin, a protocol-relative "//host", a backslash trick, an API route, control
 * characters, an over-long value — is refused (null), and the caller falls back to the profile.
 * Pure: the sign-in card and the profile page both ask it.
 */
export function safeReturnPath(raw: unknown): string | null {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 500) return null;
  if (!raw.startsWith("/") || raw.startsWith("//") || raw.includes("\\")) return null;
  if (/[\u0000-\u001f\u007f]/.test(raw)) return null;
  let url: URL;
  try {
    url = new URL(raw, "http://return.invalid");
  } catch {
    return null;
  }
  if (url.origin !== "http://return.invalid") return null;
  if (url.pathname.startsWith("/api/") || url.pathname === "/profile") return null;
  return `${url.pathname}${url.search}${url.hash}`;
}

/** The sign-in page's address that brings the person back to `path` afterwards. */
export const signInUrl = (path: string) => `/profile?next=${encodeURIComponent(path)}`;

/** The event page address that reopens the commit dialog once the person is signed in. */
export const commitReturnPath = (campaignId: string) => `/campaign/${campaignId}?commit=1`;
