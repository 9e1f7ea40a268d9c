import { afterEach, describe, expect, it } from "vitest";
import { AUTH_TEXT, CONFIRM_TEXT } from "@/lib/auth/schema";
import { SIGN_UPS_PER_IP, signUp, verifyPasswordSignIn } from "@/lib/auth/service";
import { db } from "@/lib/db";
import { confirmEmail } from "@/lib/auth/email-confirmation";

// Read by lib/env when the first sign-up applies ADMIN_EMAILS (env() is parsed lazily).
process.env.ADMIN_EMAILS = " Boss@PactNexus.test , other@pactnexus.test";

const ip = (n: number) => ({ ip: `198.51.100.${n}` });

async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return err as Error & { code?: string; fieldErrors?: Record<string, string> };
  }
  throw new Error("expected a rejection");
}

afterEach(async () => {
  await db.rateLimitHit.deleteMany({});
});

describe("signUp", () => {
  it("creates an account with a trimmed, lower-cased email and an argon2id hash, and it can sign in", async () => {
    const user = await signUp(
      { email: "  New.Person@Example.COM ", password: "violet-harbour-42", name: " New Person " },
      ip(1),
    );
    expect(user).toMatchObject({ email: "new.person@example.com", name: "New Person" });

    const row = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(row.email).toBe("new.person@example.com");
    expect(row.passwordHash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$/);
    expect(row.passwordHash).not.toContain("violet-harbour-42");
    expect(row.isAdmin).toBe(false);

    await expect(
      verifyPasswordSignIn({ email: "NEW.person@example.com", password: "violet-harbour-42" }, ip(1)),
    ).resolves.toEqual({
      id: user.id,
      email: "new.person@example.com",
      name: "New Person",
    });
  });

  it("answers 'Email already in use' for the same email in another case, and changes nothing", async () => {
    await signUp({ email: "taken@example.com", password: "violet-harbour-42" }, ip(2));
    const err = await rejection(
      signUp({ email: "  TAKEN@Example.com", password: "another-secret-77" }, ip(2)),
    );
    expect(err.message).toBe("Email already in use");
    expect(err.code).toBe("CONFLICT");
    expect(
      await db.user.count({ where: { email: { equals: "taken@example.com", mode: "insensitive" } } }),
    ).toBe(1);
    // the first password still works; the second never replaced it
    await expect(
      verifyPasswordSignIn({ email: "taken@example.com", password: "violet-harbour-42" }, ip(2)),
    ).resolves.toBeTruthy();
  });

  it("answers 'Email already in use' to two simultaneous sign-ups with one email: exactly one account", async () => {
    const results = await Promise.allSettled([
      signUp({ email: "race@example.com", password: "violet-harbour-42" }, ip(3)),
      signUp({ email: "Race@Example.com", password: "violet-harbour-43" }, ip(4)),
    ]);
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    const failed = results.find((r) => r.status === "rejected") as PromiseRejectedResult;
    expect(failed.reason.message).toBe("Email already in use");
    expect(await db.user.count({ where: { email: "race@example.com" } })).toBe(1);
  });

  it.each([
    ["too short", "abc12"],
    ["among the 1,000 most common", "password1"],
    ["common in another case", "Sunshine"],
  ])("answers 'Password is too weak' for a password %s", async (_why, password) => {
    const err = await rejection(signUp({ email: "weak@example.com", password }, ip(5)));
    expect(err.message).toBe("Password is too weak");
    expect(err.fieldErrors).toEqual({ password: "Password is too weak" });
    expect(await db.user.count({ where: { email: "weak@example.com" } })).toBe(0);
  });

  it("answers 'Invalid email address' for a malformed email", async () => {
    const err = await rejection(signUp({ email: "not-an-email", password: "violet-harbour-42" }, ip(6)));
    expect(err.message).toBe(AUTH_TEXT.invalidEmail);
    expect(err.code).toBe("BAD_REQUEST");
  });

  it("refuses input that is not a sign-up form with a 4xx message", async () => {
    for (const input of [null, "x", 42, [], { email: ["a@b.co"], password: { x: 1 } }]) {
      const err = await rejection(signUp(input, ip(7)));
      expect(err.code).toBe("BAD_REQUEST");
    }
  });

  it("grants admin to an address listed in ADMIN_EMAILS (in any case) only once its owner confirms it and sets the password (was: at sign-up — issue 13 item 5; issue 31 item 3)", async () => {
    const boss = await signUp({ email: "boss@pactnexus.test", password: "violet-harbour-42" }, ip(8));
    const other = await signUp({ email: "someone@pactnexus.test", password: "violet-harbour-42" }, ip(8));
    // whoever registers the address first is not admin
    expect((await db.user.findUniqueOrThrow({ where: { id: boss.id } })).isAdmin).toBe(false);
    // the confirmation link went out through the outbox, and only its owner can follow it
    const mail = await db.emailOutbox.findFirstOrThrow({
      where: { toEmail: "boss@pactnexus.test", dedupeKey: { startsWith: "confirm-email:" } },
    });
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    const withPassword = (t: string) => ({
      token: t,
      password: "bosses-own-77",
      passwordConfirm: "bosses-own-77",
    });
    expect((await rejection(confirmEmail(withPassword(`${token.slice(0, -1)}x`)))).message).toBe(
      CONFIRM_TEXT.invalid,
    );
    expect((await rejection(confirmEmail(token))).message).toBe(CONFIRM_TEXT.invalid); // no password: refused
    expect((await db.user.findUniqueOrThrow({ where: { id: boss.id } })).isAdmin).toBe(false);
    await expect(confirmEmail(withPassword(token))).resolves.toEqual({ email: "boss@pactnexus.test" });
    expect((await rejection(confirmEmail(withPassword(token)))).message).toBe(CONFIRM_TEXT.invalid); // single use
    expect(await db.user.findUniqueOrThrow({ where: { id: boss.id } })).toMatchObject({
      isAdmin: true,
      emailVerified: expect.any(Date),
      passwordSetViaEmailAt: expect.any(Date),
    });
    // an address not listed is confirmed but not admin
    const otherMail = await db.emailOutbox.findFirstOrThrow({
      where: { toEmail: "someone@pactnexus.test", dedupeKey: { startsWith: "confirm-email:" } },
    });
    await confirmEmail(withPassword(/verify-email\?token=([A-Za-z0-9_-]+)/.exec(otherMail.text)![1]));
    expect(await db.user.findUniqueOrThrow({ where: { id: other.id } })).toMatchObject({
      isAdmin: false,
      emailVerified: expect.any(Date),
    });
  });

  it("an expired confirmation link confirms nothing; the admin email list never shows the link", async () => {
    const late = await signUp({ email: "other@pactnexus.test", password: "violet-harbour-42" }, ip(11));
    const mail = await db.emailOutbox.findFirstOrThrow({
      where: { toEmail: "other@pactnexus.test", dedupeKey: { startsWith: "confirm-email:" } },
    });
    const token = /verify-email\?token=([A-Za-z0-9_-]+)/.exec(mail.text)![1];
    const { listOutboxForAdmin, HIDDEN_LINK_TEXT } = await import("@/lib/email/queries");
    const listed = await listOutboxForAdmin(
      { id: "admin", isAdmin: true },
      { recipient: "other@pactnexus.test" },
    );
    expect(listed.entries[0].text).toBe(HIDDEN_LINK_TEXT);
    expect(JSON.stringify(listed)).not.toContain(token);
    await db.verificationToken.updateMany({
      where: { identifier: `confirm-email:${late.id}` },
      data: { expires: new Date(Date.now() - 1000) },
    });
    expect(
      (await rejection(confirmEmail({ token, password: "others-own-77", passwordConfirm: "others-own-77" })))
        .message,
    ).toBe(CONFIRM_TEXT.invalid);
    expect(await db.user.findUniqueOrThrow({ where: { id: late.id } })).toMatchObject({
      isAdmin: false,
      emailVerified: null,
      passwordSetViaEmailAt: null,
    });
  });

  it(`limits sign-ups to ${SIGN_UPS_PER_IP} an hour per IP, with a clear message; other IPs are unaffected`, async () => {
    for (let i = 0; i < SIGN_UPS_PER_IP; i++) {
      await signUp({ email: `burst${i}@example.com`, password: "violet-harbour-42" }, ip(9));
    }
    const err = await rejection(
      signUp({ email: "burst-extra@example.com", password: "violet-harbour-42" }, ip(9)),
    );
    expect(err.code).toBe("RATE_LIMITED");
    expect(err.message).toMatch(
      /^Too many accounts created from this network\. Try again in (60|59) minutes\.$/,
    );
    expect(await db.user.count({ where: { email: "burst-extra@example.com" } })).toBe(0);

    await expect(
      signUp({ email: "burst-extra@example.com", password: "violet-harbour-42" }, ip(10)),
    ).resolves.toBeTruthy();
  });
});
