import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { decode, encode } from "next-auth/jwt";
import { authOptions, sessionCookie } from "@/lib/auth/options";
import { hashPassword } from "@/lib/auth/password";
import { AUTH_TEXT } from "@/lib/auth/schema";
import { signUp, verifyPasswordSignIn } from "@/lib/auth/service";
import { db } from "@/lib/db";
import { LOCAL_OIDC_CLIENT, startLocalOidc } from "@/scripts/lib/local-oidc.mjs";
import { createUser } from "../helpers/factories";
import { GOOGLE_CALLBACK, signInWithGoogle } from "../helpers/google-flow";

// "Continue with Google" end to end against a real OpenID Connect issuer on loopback (the certified
// oidc-provider package): NextAuth's handler, our adapter, callbacks and events, the real database.
// The browser version of these cases is e2e/google.spec.ts.

// before lib/env first parses the environment in this file
process.env.ADMIN_EMAILS = "g-squat-admin@example.test";

let oidc: Awaited<ReturnType<typeof startLocalOidc>>;

beforeAll(async () => {
  oidc = await startLocalOidc({ redirectUris: [GOOGLE_CALLBACK] });
  // before lib/env first parses the environment in this file
  process.env.GOOGLE_CLIENT_ID = LOCAL_OIDC_CLIENT.id;
  process.env.GOOGLE_CLIENT_SECRET = LOCAL_OIDC_CLIENT.secret;
  process.env.GOOGLE_TEST_ISSUER = oidc.issuer;
});
afterAll(async () => {
  await oidc?.close();
});

const sessionUserId = async (cookies: Record<string, string>) => {
  const token = cookies[sessionCookie().name];
  if (!token) return null;
  const jwt = await decode({ token, secret: process.env.NEXTAUTH_SECRET! });
  return jwt?.sub ?? null;
};

/** A browser already signed in to `userId` (the cookie NextAuth's credentials sign-in sets). */
const signedInAs = async (userId: string) => ({
  [sessionCookie().name]: await encode({
    token: { sub: userId, sv: 0 },
    secret: process.env.NEXTAUTH_SECRET!,
  }),
});

/** What app/api/auth/[...nextauth]/route.ts builds for each request: the options with its session cookie. */
const perRequest = (cookies: Record<string, string>) =>
  authOptions({ sessionToken: cookies[sessionCookie().name] });

/** NextAuth logs a failed callback with console.error, which the suite otherwise treats as a failure. */
const quietNextAuth = () => vi.spyOn(console, "error").mockImplementation(() => {});

describe("Google sign-in through a local OpenID Connect issuer", () => {
  it("a new Google user gets a verified account and a session", async () => {
    const { redirect, cookies } = await signInWithGoogle(authOptions(), "g-new@example.test");
    expect(redirect).toBe("http://localhost:3000/profile");
    const user = await db.user.findUniqueOrThrow({
      where: { email: "g-new@example.test" },
      include: { accounts: true },
    });
    expect(user.emailVerified).not.toBeNull();
    expect(user.passwordHash).toBeNull();
    expect(user.name).toBe("G new");
    expect(user.accounts).toHaveLength(1);
    expect(user.accounts[0]).toMatchObject({ provider: "google", type: "oauth" });
    // the issuer's subject is opaque (pairwise), as Google's is: not the email
    expect(user.accounts[0].providerAccountId).toMatch(/^local-[0-9a-f]{20}$/);
    expect(await sessionUserId(cookies)).toBe(user.id);

    // a second sign-in finds the same account
    const again = await signInWithGoogle(authOptions(), "g-new@example.test");
    expect(await sessionUserId(again.cookies)).toBe(user.id);
    expect(await db.account.count({ where: { userId: user.id } })).toBe(1);
  });

  it("joins a never-confirmed password account with the same email, and its old password stops working", async () => {
    const squatter = await createUser({
      email: "g-join@example.test",
      passwordHash: await hashPassword("pre-claimed-password-77"),
    });
    await expect(
      verifyPasswordSignIn({ email: "g-join@example.test", password: "pre-claimed-password-77" }),
    ).resolves.toMatchObject({ id: squatter.id });

    const { cookies } = await signInWithGoogle(authOptions(), "g-join@example.test");
    expect(await sessionUserId(cookies)).toBe(squatter.id);
    const joined = await db.user.findUniqueOrThrow({
      where: { id: squatter.id },
      include: { accounts: true },
    });
    expect(joined.accounts.map((a) => a.provider)).toEqual(["google"]);
    expect(joined.passwordHash).toBeNull();
    expect(joined.emailVerified).not.toBeNull();
    await expect(
      verifyPasswordSignIn({ email: "g-join@example.test", password: "pre-claimed-password-77" }),
    ).rejects.toThrow(AUTH_TEXT.googleOnly);
  });

  it("joins a confirmed password account and keeps its password", async () => {
    const owner = await createUser({
      email: "g-owner@example.test",
      passwordHash: await hashPassword("owner-password-88"),
    });
    await db.user.update({ where: { id: owner.id }, data: { emailVerified: new Date() } });
    const { cookies } = await signInWithGoogle(authOptions(), "g-owner@example.test");
    expect(await sessionUserId(cookies)).toBe(owner.id);
    await expect(
      verifyPasswordSignIn({ email: "g-owner@example.test", password: "owner-password-88" }),
    ).resolves.toMatchObject({ id: owner.id });
  });

  it("signed in to a squatted ADMIN_EMAILS account, a Google account of another address is never linked (issue 31)", async () => {
    // the squatter signs up the admin's address with a password of their own, and stays signed in
    const squat = await signUp({ email: "g-squat-admin@example.test", password: "squatter-pass-71" });
    const browser = await signedInAs(squat.id);
    const unchanged = async () => {
      const row = await db.user.findUniqueOrThrow({ where: { id: squat.id }, include: { accounts: true } });
      expect(row).toMatchObject({ isAdmin: false, emailVerified: null, sessionVersion: 0, accounts: [] });
      expect(row.passwordHash).not.toBeNull();
      expect(await db.user.count({ where: { email: "g-attacker@example.test" } })).toBe(0);
    };

    // through the route handler's options: refused before NextAuth links anything, with its own message
    const refused = await signInWithGoogle(perRequest, "g-attacker@example.test", { cookies: browser });
    expect(refused.redirect).toBe("/profile?error=GoogleOtherEmail");
    expect(refused.cookies[sessionCookie().name]).toBe(browser[sessionCookie().name]);
    await unchanged();

    // options that never saw the cookie: the adapter itself refuses the link (no session is issued)
    const spy = quietNextAuth();
    const linked = await signInWithGoogle(authOptions(), "g-attacker@example.test", { cookies: browser });
    expect(linked.redirect).toMatch(/^\/profile\?(.*&)?error=Callback$/);
    expect(linked.cookies[sessionCookie().name]).toBe(browser[sessionCookie().name]);
    spy.mockRestore();
    await unchanged();
    await expect(
      verifyPasswordSignIn({ email: "g-squat-admin@example.test", password: "squatter-pass-71" }),
    ).resolves.toMatchObject({ id: squat.id });
  });

  it("signed in to an account, a Google account of the same address joins it", async () => {
    const own = await signUp({ email: "g-same@example.test", password: "pre-claimed-password-77" });
    const { redirect, cookies } = await signInWithGoogle(perRequest, "g-same@example.test", {
      cookies: await signedInAs(own.id),
    });
    expect(redirect).toBe("http://localhost:3000/profile");
    expect(await sessionUserId(cookies)).toBe(own.id);
    const row = await db.user.findUniqueOrThrow({ where: { id: own.id }, include: { accounts: true } });
    expect(row.accounts.map((a) => a.provider)).toEqual(["google"]);
    expect(row).toMatchObject({ passwordHash: null, emailVerified: expect.any(Date) });
  });

  it("refuses an unverified Google email with its own message, and creates nothing", async () => {
    const { redirect, cookies } = await signInWithGoogle(authOptions(), "unverified-g@example.test");
    expect(redirect).toBe("/profile?error=GoogleEmailUnverified");
    expect(await sessionUserId(cookies)).toBeNull();
    expect(await db.user.count({ where: { email: "unverified-g@example.test" } })).toBe(0);
  });

  it("a cancelled consent or a provider error comes back to /profile with an error, signed out", async () => {
    const spy = quietNextAuth();
    const cancelled = await signInWithGoogle(authOptions(), "g-cancel@example.test", { consent: false });
    expect(cancelled.redirect).toMatch(/^\/profile\?(.*&)?error=Callback$/);
    // (a provider error below comes back as OAuthCallback; /profile shows "Failed to sign in. Please try again." for both)
    expect(await sessionUserId(cancelled.cookies)).toBeNull();

    oidc.failNextToken();
    const failed = await signInWithGoogle(authOptions(), "g-error@example.test");
    expect(failed.redirect).toMatch(/^\/profile\?(.*&)?error=OAuthCallback$/);
    expect(await sessionUserId(failed.cookies)).toBeNull();
    expect(
      await db.user.count({ where: { email: { in: ["g-cancel@example.test", "g-error@example.test"] } } }),
    ).toBe(0);
    expect(spy).toHaveBeenCalled();
    spy.mockRestore();
  });
});
