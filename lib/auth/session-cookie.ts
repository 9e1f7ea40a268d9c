/**
 * The NextAuth session cookie's name and flags, in a module light enough for proxy.ts (no Prisma,
 * no providers). lib/auth/options.ts configures NextAuth with these.
 *
 * Session cookies are Secure (and carry the __Secure- name prefix) when the app's public URL is
 * https, i.e. in production; plain http (localhost, the e2e server) cannot store Secure cookies.
 */
export const secureCookies = () => (process.env.NEXTAUTH_URL || process.env.APP_URL || "").trim().toLowerCase().startsWith("https://");

/** The session cookie: never readable by scripts, not sent on cross-site subrequests or POSTs. */
export function sessionCookie(secure = secureCookies()) {
  return {
    name: `${secure ? "__Secure-" : ""}next-auth.session-token`,
    options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure },
  };
}
