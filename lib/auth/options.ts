import "server-only";
import type { NextAuthOptions } from "next-auth";
import { db } from "@/lib/db";
import CredentialsProvider from "next-auth/providers/credentials";
import GoogleProvider from "next-auth/providers/google";
import { pactNexusAdapter } from "@/lib/auth/adapter";
import { clientIp } from "@/lib/auth/client-ip";
import { GOOGLE_OTHER_EMAIL_ERROR, oauthSignInAllowed } from "@/lib/auth/policy";
import { decode } from "next-auth/jwt";
import {
  AUTH_TEXT,
  isReservedDisplayName,
  looksLikeEmail,
  NAME_MAX,
  normalizeEmail,
} from "@/lib/auth/schema";
import { googleVerifiedEmail, secureJoinedAccount, verifyPasswordSignIn } from "@/lib/auth/service";
import { env, googleEnabled, googleTestIssuer } from "@/lib/env";
import { INVALID_TEXT_MESSAGE, isAppError, isDatabaseUnavailable, isInvalidText } from "@/lib/errors";
import { logUnexpected } from "@/lib/security/redact";
import { secureCookies, sessionCookie, tokenSessionVersion } from "@/lib/access/session-cookie";
import { endAllSessions } from "@/lib/auth/service";
import { safeSitePath } from "@/lib/auth/return-path";

/**
 * The message a failed credentials sign-in returns to the form. NextAuth passes a thrown error's
 * message to the client (signIn() resolves with { error }), so only user-facing texts may escape.
 */
function signInErrorMessage(err: unknown): string {
  if (isAppError(err)) return err.message;
  if (isDatabaseUnavailable(err))
    return "The service is temporarily unavailable. Please try again in a moment.";
  if (isInvalidText(err)) return INVALID_TEXT_MESSAGE;
  logUnexpected("[auth] unexpected sign-in error", err);
  return AUTH_TEXT.fallback;
}

export { secureCookies, sessionCookie };

/**
 * Whether this Google sign-in would link the Google account to another address's user (issue 31).
 * With JWT sessions NextAuth links a Google account it does not know yet to whoever the request's
 * session cookie names (even a session that has ended), whatever the Google email is: so someone
 * signed in to a squatted account could attach their own Google account to it and have the address
 * counted as Google-verified. Mirrors NextAuth's own reading of the cookie (callback-handler.js).
 */
async function linksToAnotherAddress(
  sessionToken: string | null | undefined,
  account: { provider: string; providerAccountId: string },
  googleEmail: string,
): Promise<boolean> {
  if (!sessionToken) return false;
  const token = await decode({ token: sessionToken, secret: env().NEXTAUTH_SECRET ?? "" }).catch(() => null);
  if (!token?.sub) return false;
  const linked = await db.account.findUnique({
    where: {
      provider_providerAccountId: {
        provider: account.provider,
        providerAccountId: account.providerAccountId,
      },
    },
    select: { userId: true },
  });
  if (linked) return false; // no new link: NextAuth signs in its user (or refuses if another is signed in)
  const signedIn = await db.user.findUnique({ where: { id: token.sub }, select: { email: true } });
  return signedIn !== null && signedIn.email !== googleEmail;
}

type Callbacks = Required<NonNullable<NextAuthOptions["callbacks"]>>;

/** Email and password always; Google when GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set. */
function signInProviders(): NextAuthOptions["providers"] {
  const providers: NextAuthOptions["providers"] = [
    CredentialsProvider({
      id: "credentials",
      name: "Email and password",
      credentials: {
        email: { label: "Email", type: "email" },
        password: { label: "Password", type: "password" },
      },
      async authorize(credentials, req) {
        try {
          const user = await verifyPasswordSignIn(credentials ?? {}, { ip: clientIp(req?.headers ?? {}) });
          return { id: user.id, email: user.email, name: user.name };
        } catch (err) {
          throw new Error(signInErrorMessage(err));
        }
      },
    }),
  ];
  if (googleEnabled()) {
    const testIssuer = googleTestIssuer().issuer;
    providers.push(
      GoogleProvider({
        clientId: env().GOOGLE_CLIENT_ID!,
        clientSecret: env().GOOGLE_CLIENT_SECRET!,
        // The tests' local OpenID issuer (loopback only, lib/env.ts); else Google's own discovery.
        ...(testIssuer ? { wellKnown: `${testIssuer}/.well-known/openid-configuration` } : {}),
        authorization: { params: { scope: "openid email profile" } },
        // Linking by email is safe only because signIn below refuses unverified Google emails.
        allowDangerousEmailAccountLinking: true,
        profile(profile) {
          const name = profile.name ? Array.from(profile.name.trim()).slice(0, NAME_MAX).join("") : "";
          return {
            id: profile.sub,
            // a Google name is public like any display name: none when it is an email or a reserved label
            name: name && !looksLikeEmail(name) && !isReservedDisplayName(name) ? name : null,
            email: normalizeEmail(profile.email ?? ""),
            image: profile.picture ?? null,
          };
        },
      }),
    );
  }
  return providers;
}

// NextAuth's default throws on a callbackUrl that is not a URL ("TypeError: Invalid URL", a
// 500 found by fuzzing) and on a non-string one; same rule otherwise: app paths and same-origin URLs, else home.
// Issue 31: every path goes through safeSitePath (lib/auth/return-path), which checks the normalised value it returns
// ("/.//evil.com" is "//evil.com" once normalised); NextAuth's own pages ("/profile?error=…") are app paths too.
const safeRedirect: Callbacks["redirect"] = async ({ url, baseUrl }) => {
  if (typeof url !== "string") return baseUrl;
  let path: string | null = null;
  if (url.startsWith("/")) path = url;
  else {
    try {
      const parsed = new URL(url);
      if (parsed.origin === new URL(baseUrl).origin)
        path = `${parsed.pathname}${parsed.search}${parsed.hash}`;
    } catch {
      // not a URL: the home page
    }
  }
  if (path === null) return baseUrl;
  const base = baseUrl.replace(/\/+$/, "");
  const safe = safeSitePath(path);
  return safe ? `${base}${safe}` : baseUrl;
};

/** The token's subject and the session version at sign-in. */
const withSessionVersion: Callbacks["jwt"] = async ({ token, user }) => {
  if (user) {
    token.sub = user.id;
    // The session version at sign-in: signing out moves the user's, which ends this token everywhere.
    const row = await db.user.findUnique({ where: { id: user.id }, select: { sessionVersion: true } });
    token.sv = row?.sessionVersion ?? 0;
  }
  return token;
};

/** The session's user with the id, email and admin flag read from the database. */
const sessionWithRoles: Callbacks["session"] = async ({ session, token }) => {
  if (session.user && token.sub) {
    // The client account bar (components/layout/account-bar.tsx) shows the Admin link from this;
    // read from the database each time, like getViewer, so a revoked admin loses it at once.
    const user = await db.user.findFirst({
      where: { id: token.sub, sessionVersion: tokenSessionVersion(token) },
      select: { email: true, isAdmin: true },
    });
    if (!user) return { ...session, user: undefined };
    Object.assign(session.user, { id: token.sub, email: user.email, isAdmin: user.isAdmin });
  }
  return session;
};

/** NextAuth's events: sign-out ends every session; Google sign-ins and joins verify or secure. */
const authEvents: NextAuthOptions["events"] = {
  // Signing out ends every session of the user (all devices, and any copy of the cookie).
  async signOut({ token }) {
    if (token?.sub) await endAllSessions(token.sub, tokenSessionVersion(token));
  },
  async signIn({ user, account, profile }) {
    // credentials sign-ins apply ADMIN_EMAILS in verifyPasswordSignIn. A Google sign-in is only
    // let through for a Google-verified email (callbacks.signIn); it verifies the user's address
    // only when it is that very email (googleVerifiedEmail compares them).
    if (account?.type === "oauth" && user.id && user.email)
      await googleVerifiedEmail({ id: user.id, email: user.email }, profile?.email);
  },
  // Google joined an existing account with the same (Google-verified) address. When that
  // account's email was never confirmed, whoever registered it may not be its owner: its
  // password stops working and its sessions end (the pre-hijack case, issue 13 item 5).
  async linkAccount({ user, account, profile }) {
    if (account.type === "oauth" && user.id && user.email)
      await secureJoinedAccount({ id: user.id, email: user.email }, profile?.email);
  },
};

/**
 * NextAuth v4 configuration: JWT sessions (the user id is the token subject; pages and actions read
 * it with lib/access/session-cookie.ts sessionUserId, and roles from the database on every request
 * in lib/access/viewer.ts), email/password always, Google only when
 * GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set. The adapter stores OAuth users and accounts.
 */
export function authOptions(request: { sessionToken?: string | null } = {}): NextAuthOptions {
  // The Google accounts callbacks.signIn admitted in this request, with their verified email: the
  // adapter links an account only to the user with that very email (lib/auth/adapter.ts).
  const verifiedEmails = new Map<string, string>();
  return {
    adapter: pactNexusAdapter({
      verifiedEmailOf: (provider, id) => verifiedEmails.get(`${provider}:${id}`) ?? null,
    }),
    session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
    useSecureCookies: secureCookies(),
    cookies: { sessionToken: sessionCookie() },
    secret: env().NEXTAUTH_SECRET,
    pages: { signIn: "/profile", error: "/profile" },
    providers: signInProviders(),
    callbacks: {
      async signIn({ account, profile }) {
        if (!account || account.type !== "oauth") return true;
        const decision = oauthSignInAllowed(account.provider, profile);
        if (decision !== true) return `/profile?error=${encodeURIComponent(decision.error)}`;
        const googleEmail = normalizeEmail((profile as { email: string }).email);
        if (await linksToAnotherAddress(request.sessionToken, account, googleEmail))
          return `/profile?error=${GOOGLE_OTHER_EMAIL_ERROR}`;
        verifiedEmails.set(`${account.provider}:${account.providerAccountId}`, googleEmail);
        return true;
      },
      redirect: safeRedirect,
      jwt: withSessionVersion,
      session: sessionWithRoles,
    },
    events: authEvents,
  };
}
