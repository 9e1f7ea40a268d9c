import "server-only";
import type { NextAuthOptions } from "next-auth";
import { db } from "@/lib/db";
import CredentialsProvider from "next-auth/providers/credentials";
import GoogleProvider from "next-auth/providers/google";
import { pactNexusAdapter } from "@/lib/auth/adapter";
import { clientIp } from "@/lib/auth/client-ip";
import { oauthSignInAllowed } from "@/lib/auth/policy";
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
import { secureCookies, sessionCookie, tokenSessionVersion } from "@/lib/auth/session-cookie";
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
 * NextAuth v4 configuration: JWT sessions (the user id is the token subject; pages and actions read
 * it with lib/auth/session-cookie.ts sessionUserId, and roles from the database on every request
 * in lib/auth/viewer.ts), email/password always, Google only when
 * GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set. The adapter stores OAuth users and accounts.
 */
export function authOptions(): NextAuthOptions {
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
  return {
    adapter: pactNexusAdapter(),
    session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
    useSecureCookies: secureCookies(),
    cookies: { sessionToken: sessionCookie() },
    secret: env().NEXTAUTH_SECRET,
    pages: { signIn: "/profile", error: "/profile" },
    providers,
    callbacks: {
      async signIn({ account, profile }) {
        if (!account || account.type !== "oauth") return true;
        const decision = oauthSignInAllowed(account.provider, profile);
        return decision === true ? true : `/profile?error=${encodeURIComponent(decision.error)}`;
      },
      // NextAuth's default throws on a callbackUrl that is not a URL ("TypeError: Invalid URL", a
      // 500 found by fuzzing) and on a non-string one; same rule otherwise: app paths and same-origin URLs, else home.
      // Issue 31: every path goes through safeSitePath (lib/auth/return-path), which checks the normalised value it returns
      // ("/.//evil.com" is "//evil.com" once normalised); NextAuth's own pages ("/profile?error=…") are app paths too.
      async redirect({ url, baseUrl }) {
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
      },
      async jwt({ token, user }) {
        if (user) {
          token.sub = user.id;
          // The session version at sign-in: signing out moves the user's, which ends this token everywhere.
          const row = await db.user.findUnique({ where: { id: user.id }, select: { sessionVersion: true } });
          token.sv = row?.sessionVersion ?? 0;
        }
        return token;
      },
      async session({ session, token }) {
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
      },
    },
    events: {
      // Signing out ends every session of the user (all devices, and any copy of the cookie).
      async signOut({ token }) {
        if (token?.sub) await endAllSessions(token.sub, tokenSessionVersion(token));
      },
      async signIn({ user, account }) {
        // credentials sign-ins apply ADMIN_EMAILS in verifyPasswordSignIn. A Google sign-in is only
        // let through for a Google-verified email (callbacks.signIn), so the address is verified.
        if (account?.type === "oauth" && user.id && user.email)
          await googleVerifiedEmail({ id: user.id, email: user.email });
      },
      // Google joined an existing account with the same (Google-verified) address. When that
      // account's email was never confirmed, whoever registered it may not be its owner: its
      // password stops working and its sessions end (the pre-hijack case, issue 13 item 5).
      async linkAccount({ user, account }) {
        if (account.type === "oauth" && user.id) await secureJoinedAccount(user.id);
      },
    },
  };
}
