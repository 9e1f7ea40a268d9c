import { hkdfSync } from "node:crypto";
import { jwtDecrypt } from "jose";

/**
 * The NextAuth session cookie's name and flags, in a module light enough for proxy.ts (no Prisma,
 * no providers). lib/auth/options.ts configures NextAuth with these.
 *
 * Session cookies are Secure (and carry the __Secure- name prefix) when the app's public URL is
 * https, i.e. in production; plain http (localhost, the e2e server) cannot store Secure cookies.
 */
export const secureCookies = () =>
  (process.env.NEXTAUTH_URL || process.env.APP_URL || "").trim().toLowerCase().startsWith("https://");

/** The session cookie: never readable by scripts, not sent on cross-site subrequests or POSTs. */
export function sessionCookie(secure = secureCookies()) {
  return {
    name: `${secure ? "__Secure-" : ""}next-auth.session-token`,
    options: { httpOnly: true, sameSite: "lax" as const, path: "/", secure },
  };
}

type CookieReader = {
  get(name: string): { value: string } | undefined;
  getAll(): Array<{ name: string; value: string }>;
};

/** What a valid session cookie says: the user, and the session version current when they signed in. */
export type SessionClaims = { userId: string; version: number };

/**
 * NextAuth's session-token key (next-auth/jwt getDerivedEncryptionKey: HKDF-SHA256 of the secret, no
 * salt, this info, 32 bytes), derived once per secret. next-auth's decode() derives it on every call:
 * about 0.35 ms of CPU per signed-in request in the commit bench (issue 35 item 3).
 */
const derivedKeys = new Map<string, Uint8Array>();
function sessionKey(secret: string): Uint8Array {
  let key = derivedKeys.get(secret);
  if (!key) {
    key = new Uint8Array(hkdfSync("sha256", secret, "", "NextAuth.js Generated Encryption Key", 32));
    if (derivedKeys.size > 4) derivedKeys.clear(); // the secret changes only in tests
    derivedKeys.set(secret, key);
  }
  return key;
}

/** next-auth/jwt decode() with the derived key kept: the same JWE (dir, A256GCM), the same 15 s clock tolerance. */
async function decode(token: string, secret: string) {
  const { payload } = await jwtDecrypt(token, sessionKey(secret), { clockTolerance: 15 });
  return payload;
}

/**
 * The claims of the request's session cookie, or null: no cookie, or a token that does not decode
 * with NEXTAUTH_SECRET or has expired (treated as signed out, as NextAuth does). A token too large
 * for one cookie is split by NextAuth into name.0, name.1, ... The caller must still compare
 * `version` with the user's `sessionVersion` (signing out moves it: every copy of an older cookie
 * is then signed out) — getViewer and the proxy's member-version query do.
 *
 * Reading the token directly costs one decryption; NextAuth's getServerSession would also run its
 * session handler and re-encrypt the token for a cookie a page cannot set (issue 8). The session
 * still rolls through /api/auth/session, which the account bar calls on every page.
 */
export async function sessionClaims(cookies: CookieReader): Promise<SessionClaims | null> {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) return null;
  const name = sessionCookie().name;
  let token = cookies.get(name)?.value;
  if (!token) {
    const index = (cookieName: string) =>
      cookieName.startsWith(`${name}.`) && /^\d+$/.test(cookieName.slice(name.length + 1))
        ? Number(cookieName.slice(name.length + 1))
        : -1;
    const chunks = cookies
      .getAll()
      .filter((c) => index(c.name) >= 0)
      .sort((a, b) => index(a.name) - index(b.name));
    token = chunks.map((c) => c.value).join("");
  }
  if (!token) return null;
  try {
    const payload = await decode(token, secret);
    if (typeof payload?.sub !== "string" || !payload.sub) return null;
    return { userId: payload.sub, version: tokenSessionVersion(payload) };
  } catch {
    return null;
  }
}

/** The session version a token carries (tokens minted before versions existed carry none: version 0). */
export function tokenSessionVersion(token: object | null | undefined): number {
  const v = (token as { sv?: unknown } | null | undefined)?.sv;
  return typeof v === "number" && Number.isSafeInteger(v) && v >= 0 ? v : 0;
}

/** The user id of a session cookie, or null (see sessionClaims; the session version is not checked here). */
export async function sessionUserId(cookies: CookieReader): Promise<string | null> {
  return (await sessionClaims(cookies))?.userId ?? null;
}
