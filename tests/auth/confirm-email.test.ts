import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { encode } from "next-auth/jwt";
import type { Session } from "next-auth";
import { authOptions } from "@/lib/auth/options";
import { signUp } from "@/lib/auth/service";
import { getViewer } from "@/lib/access/viewer";
import { hashPassword } from "@/lib/auth/password";
import { confirmationEmailFor } from "@/lib/auth/email-confirmation";
import { requestPasswordReset, resetPassword } from "@/lib/auth/password-reset";
import { CONFIRM_TEXT } from "@/lib/auth/schema";
import { db } from "@/lib/db";
import { createUser } from "../helpers/factories";

/*
 * Issue 31 item 3: a confirmation hands the account to whoever reads the inbox. Someone signs up
 * another person's ADMIN_EMAILS address with a password of their own and keeps a session; the real
 * owner follows the emailed link. The owner sets the password there, every earlier session ends, and
 * ADMIN_EMAILS applies to the owner's new session only.
 *
 * The seam is the request's session cookie, as NextAuth issues it: the credentials provider signs in
 * (authorize), the jwt callback mints the token (with the session version), and getViewer and the
 * session callback (/api/auth/session) read it back.
 */
process.env.ADMIN_EMAILS =
  "admin@pactnexus.test, legacy-admin@pactnexus.test, seeded-admin@pactnexus.test, google-owner@pactnexus.test";

let cookie: string | null = null;
vi.mock("next/headers", () => ({
  headers: async () => new Headers(),
  cookies: async () => {
    const list = cookie ? [{ name: "next-auth.session-token", value: cookie }] : [];
    return { get: (n: string) => list.find((c) => c.name === n), getAll: () => list, has: () => !!cookie };
  },
}));

const { confirmEmailAction } = await import("@/app/verify-email/actions");

type Authorize = (credentials: unknown, req: { headers: Record<string, string> }) => Promise<{ id: string }>;
const authorize = (email: string, password: string) =>
  (
    authOptions().providers.find((p) => p.id === "credentials") as unknown as {
      options: { authorize: Authorize };
    }
  ).options.authorize({ email, password }, { headers: {} });

/** A credentials sign-in as NextAuth runs it: authorize, then the jwt callback mints the session token. */
async function signInWithPassword(email: string, password: string) {
  const user = await authorize(email, password);
  const token = await authOptions().callbacks!.jwt!({ token: {}, user } as never);
  return { token, cookie: await encode({ token, secret: process.env.NEXTAUTH_SECRET! }) };
}

/** What /api/auth/session answers for a token (the account bar's Admin link reads isAdmin from it). */
const sessionFor = async (token: object) =>
  (await authOptions().callbacks!.session!({
    session: { user: { name: null, email: null }, expires: "" } as Session,
    token,
  } as never)) as Session & { user?: { id: string; isAdmin: boolean } };

/** getViewer for a request carrying this session cookie. */
async function viewerWith(sessionCookie: string | null) {
  cookie = sessionCookie;
  try {
    return await getViewer();
  } finally {
    cookie = null;
  }
}

async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

/** The link's secret from the confirmation email in the outbox (what only the inbox's reader sees). */
async function emailedToken(email: string) {
  const mail = await db.emailOutbox.findFirstOrThrow({
    where: { toEmail: email, dedupeKey: { startsWith: "confirm-email:" } },
    orderBy: { createdAt: "desc" },
  });
  return /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
}

const accountRow = (email: string) =>
  db.user.findUniqueOrThrow({
    where: { email },
    select: {
      passwordHash: true,
      passwordSetViaEmailAt: true,
      emailVerified: true,
      isAdmin: true,
      sessionVersion: true,
    },
  });

beforeEach(() => {
  cookie = null;
});
afterEach(async () => {
  await db.rateLimitHit.deleteMany({});
});

describe("a confirmation hands the account over to the inbox's owner (issue 31 item 3)", () => {
  it("squatter signs up the ADMIN_EMAILS address; the owner confirms setting a password: the squatter is out, only the owner is admin", async () => {
    // the squatter registers the address with their own password, and holds a session
    const squat = await signUp({ email: "admin@pactnexus.test", password: "squatter-pass-71" });
    const squatter = await signInWithPassword("admin@pactnexus.test", "squatter-pass-71");
    expect(await viewerWith(squatter.cookie)).toMatchObject({ id: squat.id, isAdmin: false });
    expect((await sessionFor(squatter.token)).user).toMatchObject({ id: squat.id, isAdmin: false });

    // the real owner opens the emailed link: the page offers the form for that address
    const link = await emailedToken("admin@pactnexus.test");
    expect(await confirmationEmailFor(link)).toBe("admin@pactnexus.test");
    const result = await confirmEmailAction({
      token: link,
      password: "owners-own-pass-82",
      passwordConfirm: "owners-own-pass-82",
    });
    expect(result).toEqual({ ok: true, data: { email: "admin@pactnexus.test" } });

    const row = await accountRow("admin@pactnexus.test");
    expect(row).toMatchObject({
      passwordSetViaEmailAt: expect.any(Date),
      emailVerified: expect.any(Date),
      isAdmin: true,
      sessionVersion: 1,
    });
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);

    // the squatter's password no longer works, and their session has ended everywhere
    expect((await rejection(authorize("admin@pactnexus.test", "squatter-pass-71"))).message).toBe(
      "Incorrect password",
    );
    expect(await viewerWith(squatter.cookie)).toBeNull();
    expect((await sessionFor(squatter.token)).user).toBeUndefined();

    // the owner's password works, and only the owner's session is an admin's
    const owner = await signInWithPassword("admin@pactnexus.test", "owners-own-pass-82");
    expect(await viewerWith(owner.cookie)).toMatchObject({ id: squat.id, isAdmin: true });
    expect((await sessionFor(owner.token)).user).toMatchObject({ id: squat.id, isAdmin: true });
    expect(await viewerWith(squatter.cookie)).toBeNull();

    // the link worked once
    expect(await confirmationEmailFor(link)).toBeNull();
    expect(
      await confirmEmailAction({
        token: link,
        password: "another-pass-93",
        passwordConfirm: "another-pass-93",
      }),
    ).toEqual({ ok: false, error: CONFIRM_TEXT.invalid });
    expect((await accountRow("admin@pactnexus.test")).passwordHash).toBe(row.passwordHash);
  });

  it("a confirmation without setting a password is refused and changes nothing; the link still works after", async () => {
    await signUp({ email: "careful@example.test", password: "first-choice-44" });
    const link = await emailedToken("careful@example.test");
    const before = await accountRow("careful@example.test");
    const oldForm = new FormData(); // the form as it was before issue 31: the token alone
    oldForm.set("token", link);
    const refusals: [unknown, string, Record<string, string> | undefined][] = [
      [
        { token: link },
        "Password is required",
        { password: "Password is required", passwordConfirm: "Password is required" },
      ],
      [
        { token: link, password: "", passwordConfirm: "" },
        "Password is required",
        { password: "Password is required" },
      ],
      [
        { token: link, password: "abc12", passwordConfirm: "abc12" },
        "Password is too weak",
        { password: "Password is too weak" },
      ],
      [
        { token: link, password: "password1", passwordConfirm: "password1" },
        "Password is too weak",
        { password: "Password is too weak" },
      ],
      [
        { token: link, password: "second-choice-55", passwordConfirm: "second-choice-56" },
        CONFIRM_TEXT.mismatch,
        { passwordConfirm: CONFIRM_TEXT.mismatch },
      ],
      [
        { token: link, password: "second-choice-55" },
        "Password is required",
        { passwordConfirm: "Password is required" },
      ],
      [oldForm, CONFIRM_TEXT.invalid, undefined],
      [link, CONFIRM_TEXT.invalid, undefined],
      [null, CONFIRM_TEXT.invalid, undefined],
      [
        { password: "second-choice-55", passwordConfirm: "second-choice-55" },
        CONFIRM_TEXT.invalid,
        undefined,
      ],
      [
        { token: link, password: "second-choice-55", passwordConfirm: "second-choice-55", isAdmin: true },
        CONFIRM_TEXT.invalid,
        undefined,
      ],
    ];
    for (const [input, error, fieldErrors] of refusals) {
      const res = await confirmEmailAction(input);
      expect(res, JSON.stringify(input)).toEqual(
        fieldErrors ? { ok: false, error, fieldErrors } : { ok: false, error },
      );
    }
    expect(await accountRow("careful@example.test")).toEqual(before);
    expect(before).toMatchObject({ emailVerified: null, passwordSetViaEmailAt: null, sessionVersion: 0 });
    expect(await confirmationEmailFor(link)).toBe("careful@example.test");

    // the owner who signed up may choose the same password again
    expect(
      await confirmEmailAction({
        token: link,
        password: "first-choice-44",
        passwordConfirm: "first-choice-44",
      }),
    ).toEqual({ ok: true, data: { email: "careful@example.test" } });
    await expect(authorize("careful@example.test", "first-choice-44")).resolves.toBeTruthy();
    expect(await accountRow("careful@example.test")).toMatchObject({
      emailVerified: expect.any(Date),
      passwordSetViaEmailAt: expect.any(Date),
      isAdmin: false, // not listed in ADMIN_EMAILS
    });
  });

  it("an expired link confirms nothing and sets no password", async () => {
    const user = await signUp({ email: "late@example.test", password: "first-choice-44" });
    const link = await emailedToken("late@example.test");
    await db.verificationToken.updateMany({
      where: { identifier: `confirm-email:${user.id}` },
      data: { expires: new Date(Date.now() - 1000) },
    });
    const before = await accountRow("late@example.test");
    expect(await confirmationEmailFor(link)).toBeNull();
    expect(
      await confirmEmailAction({
        token: link,
        password: "second-choice-55",
        passwordConfirm: "second-choice-55",
      }),
    ).toEqual({ ok: false, error: CONFIRM_TEXT.invalid });
    expect(await accountRow("late@example.test")).toEqual(before);
  });

  it("an account confirmed the old way (its sign-up password) is not made admin by ADMIN_EMAILS until a reset link sets the password", async () => {
    // before issue 31: the squatter's password, and a confirmation that only marked the address verified
    const legacy = await createUser({
      email: "legacy-admin@pactnexus.test",
      passwordHash: await hashPassword("squatter-pass-71"),
    });
    await db.user.update({ where: { id: legacy.id }, data: { emailVerified: new Date() } });
    const squatter = await signInWithPassword("legacy-admin@pactnexus.test", "squatter-pass-71");
    expect(await viewerWith(squatter.cookie)).toMatchObject({ isAdmin: false });
    // a Google sign-in of the owner does not make it admin either: the sign-up password still opens it
    await authOptions().events!.signIn!({
      user: { id: legacy.id, email: legacy.email },
      account: { type: "oauth", provider: "google" } as never,
      profile: { email: legacy.email },
    } as never);
    expect((await accountRow("legacy-admin@pactnexus.test")).isAdmin).toBe(false);

    // the owner uses "Forgot password?": the emailed reset link sets the password
    await requestPasswordReset({ email: "legacy-admin@pactnexus.test" }, { ip: null });
    const mail = await db.emailOutbox.findFirstOrThrow({
      where: { toEmail: "legacy-admin@pactnexus.test", dedupeKey: { startsWith: "reset-password:" } },
    });
    const resetToken = /reset-password\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    await resetPassword({ token: resetToken, password: "owners-own-pass-82" });
    expect(await accountRow("legacy-admin@pactnexus.test")).toMatchObject({
      isAdmin: true,
      passwordSetViaEmailAt: expect.any(Date),
    });
    expect(await viewerWith(squatter.cookie)).toBeNull();
    const owner = await signInWithPassword("legacy-admin@pactnexus.test", "owners-own-pass-82");
    expect(await viewerWith(owner.cookie)).toMatchObject({ id: legacy.id, isAdmin: true });
  });

  it("an admin made by the seed or `npm run user:admin` (not ADMIN_EMAILS) stays admin with its own password", async () => {
    // scripts/seed.ts: the demo admin, a known password, isAdmin set directly
    await db.user.create({
      data: {
        email: "seeded-admin@pactnexus.test",
        passwordHash: await hashPassword("demo-password-1"),
        isAdmin: true,
        emailVerified: new Date(),
      },
    });
    const admin = await signInWithPassword("seeded-admin@pactnexus.test", "demo-password-1");
    expect(await viewerWith(admin.cookie)).toMatchObject({ isAdmin: true });
    expect((await sessionFor(admin.token)).user).toMatchObject({ isAdmin: true });
  });

  it("an unconfirmed squatted address joined by the owner's Google sign-in: the password goes, sessions end, the owner is admin", async () => {
    const squat = await signUp({ email: "google-owner@pactnexus.test", password: "squatter-pass-71" });
    const squatter = await signInWithPassword("google-owner@pactnexus.test", "squatter-pass-71");
    const events = authOptions().events!;
    await events.linkAccount!({
      user: { id: squat.id, email: squat.email },
      account: { type: "oauth", provider: "google", providerAccountId: "g-owner" },
      profile: { email: squat.email },
    } as never);
    await events.signIn!({
      user: { id: squat.id, email: squat.email },
      account: { type: "oauth", provider: "google" } as never,
      profile: { email: squat.email },
    } as never);
    expect(await accountRow("google-owner@pactnexus.test")).toMatchObject({
      passwordHash: null,
      passwordSetViaEmailAt: null,
      sessionVersion: 1,
      emailVerified: expect.any(Date),
      isAdmin: true, // no password left: every way in is the owner's Google account
    });
    expect(await viewerWith(squatter.cookie)).toBeNull();
    expect((await sessionFor(squatter.token)).user).toBeUndefined();
  });
});
