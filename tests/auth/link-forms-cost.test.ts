import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { signUp } from "@/lib/auth/service";
import { requestPasswordReset } from "@/lib/auth/password-reset";
import { CONFIRM_TEXT, RESET_TEXT } from "@/lib/auth/schema";
import { CLIENT_IP_HEADER } from "@/lib/auth/client-ip";
import { db } from "@/lib/db";
import { createUser } from "../helpers/factories";

/*
 * Issue 31: the confirmation form (/verify-email) and the reset form (/reset-password) are public. A
 * token that would not do anything is refused before the password is hashed (argon2id, 19 MiB each),
 * and each client address has a limited number of attempts, answered with the app's usual text.
 * The seam is the server action, with the client address the front server sets.
 */
const hashes = vi.hoisted(() => ({ count: 0 }));
vi.mock("@/lib/auth/password", async (original) => {
  const real = await original<typeof import("@/lib/auth/password")>();
  return {
    ...real,
    hashPassword: (password: string) => {
      hashes.count++;
      return real.hashPassword(password);
    },
  };
});

let ip: string | null = null;
vi.mock("next/headers", () => ({
  headers: async () => new Headers(ip ? { [CLIENT_IP_HEADER]: ip } : {}),
  cookies: async () => ({ get: () => undefined, getAll: () => [], has: () => false }),
}));

const { confirmEmailAction } = await import("@/app/verify-email/actions");
const { resetPasswordAction } = await import("@/app/reset-password/actions");

const WRONG_TOKEN = "A".repeat(43); // the shape of a link token, but no such link
const TOO_MANY = /^Too many attempts\. Try again in \d+ minutes?\.$/;

async function emailedToken(email: string, prefix: string, path: string) {
  const mail = await db.emailOutbox.findFirstOrThrow({
    where: { toEmail: email, dedupeKey: { startsWith: prefix } },
    orderBy: { createdAt: "desc" },
  });
  return new RegExp(`${path}\\?token=([A-Za-z0-9_-]+)`).exec(mail.text)![1];
}

beforeEach(() => {
  hashes.count = 0;
  ip = null;
});
afterEach(async () => {
  await db.rateLimitHit.deleteMany({});
});

describe("the link forms refuse cheap requests cheaply", () => {
  it("confirmation: an unknown, used or expired token never reaches the hasher; a good one does", async () => {
    const form = (token: string) => ({
      token,
      password: "owners-own-pass-82",
      passwordConfirm: "owners-own-pass-82",
    });
    expect(await confirmEmailAction(form(WRONG_TOKEN))).toEqual({ ok: false, error: CONFIRM_TEXT.invalid });
    expect(hashes.count).toBe(0);

    await signUp({ email: "cheap-confirm@example.test", password: "squatter-pass-71" });
    hashes.count = 0;
    const token = await emailedToken("cheap-confirm@example.test", "confirm-email:", "verify-email");
    await db.verificationToken.updateMany({
      data: { expires: new Date(Date.now() - 1000) },
      where: { identifier: { startsWith: "confirm-email:" } },
    });
    expect(await confirmEmailAction(form(token))).toEqual({ ok: false, error: CONFIRM_TEXT.invalid });
    expect(hashes.count).toBe(0);

    await db.verificationToken.updateMany({
      data: { expires: new Date(Date.now() + 3600_000) },
      where: { identifier: { startsWith: "confirm-email:" } },
    });
    expect(await confirmEmailAction(form(token))).toEqual({
      ok: true,
      data: { email: "cheap-confirm@example.test" },
    });
    expect(hashes.count).toBe(1);
    // used: refused without hashing
    expect(await confirmEmailAction(form(token))).toEqual({ ok: false, error: CONFIRM_TEXT.invalid });
    expect(hashes.count).toBe(1);
  });

  it("reset: an unknown or used link never reaches the hasher; a good one does", async () => {
    expect(await resetPasswordAction({ token: WRONG_TOKEN, password: "brand new pass 3" })).toEqual({
      ok: false,
      error: RESET_TEXT.invalid,
    });
    expect(hashes.count).toBe(0);
    await createUser({ email: "cheap-reset@example.test", passwordHash: "$argon2id$placeholder" });
    await requestPasswordReset({ email: "cheap-reset@example.test" }, { ip: null });
    const token = await emailedToken("cheap-reset@example.test", "reset-password:", "reset-password");
    expect(await resetPasswordAction({ token, password: "brand new pass 3" })).toMatchObject({ ok: true });
    expect(hashes.count).toBe(1);
    expect(await resetPasswordAction({ token, password: "brand new pass 4" })).toEqual({
      ok: false,
      error: RESET_TEXT.invalid,
    });
    expect(hashes.count).toBe(1);
  });

  it("each client address has 20 attempts per 15 minutes at either form, then 'Too many attempts'; another address is not affected", async () => {
    ip = "203.0.113.7";
    for (let i = 0; i < 20; i++) {
      expect(
        await confirmEmailAction({
          token: WRONG_TOKEN,
          password: "owners-own-pass-82",
          passwordConfirm: "owners-own-pass-82",
        }),
      ).toEqual({ ok: false, error: CONFIRM_TEXT.invalid });
      expect(await resetPasswordAction({ token: WRONG_TOKEN, password: "brand new pass 3" })).toEqual({
        ok: false,
        error: RESET_TEXT.invalid,
      });
    }
    const confirmed = await confirmEmailAction({
      token: WRONG_TOKEN,
      password: "owners-own-pass-82",
      passwordConfirm: "owners-own-pass-82",
    });
    expect(confirmed).toMatchObject({ ok: false, error: expect.stringMatching(TOO_MANY) });
    const reset = await resetPasswordAction({ token: WRONG_TOKEN, password: "brand new pass 3" });
    expect(reset).toMatchObject({ ok: false, error: expect.stringMatching(TOO_MANY) });

    ip = "203.0.113.8";
    expect(
      await confirmEmailAction({
        token: WRONG_TOKEN,
        password: "owners-own-pass-82",
        passwordConfirm: "owners-own-pass-82",
      }),
    ).toEqual({ ok: false, error: CONFIRM_TEXT.invalid });
    expect(hashes.count).toBe(0);
  });
});
