import { afterEach, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { AUTH_TEXT, RESET_TEXT } from "@/lib/auth/schema";
import { hashPassword } from "@/lib/auth/password";
import { verifyPasswordSignIn } from "@/lib/auth/service";
import { changePassword, requestPasswordReset, resetLinkFor, resetPassword } from "@/lib/auth/password-reset";
import { createUser } from "../helpers/factories";

const ip = { ip: "198.51.100.77" };
const tokenOf = (text: string) => /reset-password\?token=([A-Za-z0-9_-]+)/.exec(text)?.[1] ?? null;
const resetMails = (to: string) =>
  db.emailOutbox.findMany({ where: { toEmail: to, dedupeKey: { startsWith: "reset-password:" } } });

async function withPassword(password = "old harbour 11") {
  const user = await createUser();
  await db.user.update({ where: { id: user.id }, data: { passwordHash: await hashPassword(password) } });
  return user;
}

afterEach(async () => {
  await db.rateLimitHit.deleteMany({});
});

describe("password reset (issue 18 item 5)", () => {
  it("does the same work before answering whether or not the account exists (issue 31: no timing tell)", async () => {
    const user = await withPassword();
    for (const email of ["nobody-at-all@example.test", user.email]) {
      const deferred: (() => Promise<void>)[] = [];
      const before = await db.emailOutbox.count();
      const tokensBefore = await db.verificationToken.count();
      expect(await requestPasswordReset({ email }, { ...ip, defer: (t) => deferred.push(t) })).toBe(
        RESET_TEXT.sent,
      );
      // answered: nothing about the account was looked up or written yet, on either path
      expect(deferred).toHaveLength(1);
      expect(await db.emailOutbox.count()).toBe(before);
      expect(await db.verificationToken.count()).toBe(tokensBefore);
      await deferred[0]();
    }
    expect(await resetMails("nobody-at-all@example.test")).toHaveLength(0);
    expect(await resetMails(user.email)).toHaveLength(1);
  });

  it("answers the same for an unknown address and emails a single-use link only to an existing one", async () => {
    const user = await withPassword();
    expect(await requestPasswordReset({ email: "nobody-here@example.test" }, ip)).toBe(RESET_TEXT.sent);
    expect(await resetMails("nobody-here@example.test")).toHaveLength(0);
    expect(await requestPasswordReset({ email: user.email.toUpperCase() }, ip)).toBe(RESET_TEXT.sent);
    const [mail] = await resetMails(user.email);
    const token = tokenOf(mail.text)!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    // the admin list never shows the link
    const { listOutboxForAdmin, HIDDEN_LINK_TEXT } = await import("@/lib/email/queries");
    const listed = await listOutboxForAdmin({ id: "admin", isAdmin: true }, { recipient: user.email });
    expect(listed.entries.find((e) => e.subject.includes("Reset"))?.text).toBe(HIDDEN_LINK_TEXT);
    expect(JSON.stringify(listed)).not.toContain(token);

    const before = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    await expect(resetPassword({ token, password: "123456" })).rejects.toThrow(AUTH_TEXT.weakPassword);
    expect(await resetPassword({ token, password: "new lighthouse 22" })).toEqual({ email: user.email });
    const after = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.sessionVersion).toBe(before.sessionVersion + 1); // every session ends
    expect(after.emailVerified).not.toBeNull();
    await expect(
      verifyPasswordSignIn({ email: user.email, password: "new lighthouse 22" }),
    ).resolves.toMatchObject({
      id: user.id,
    });
    await expect(verifyPasswordSignIn({ email: user.email, password: "old harbour 11" })).rejects.toThrow(
      AUTH_TEXT.incorrectPassword,
    );
    // once only
    await expect(resetPassword({ token, password: "another one 33" })).rejects.toThrow(RESET_TEXT.invalid);
  });

  it("an expired link, a forged token and a newer link's predecessor are refused", async () => {
    const user = await withPassword();
    const first = new URL(await resetLinkFor(user.email)).searchParams.get("token")!;
    const second = new URL(await resetLinkFor(user.email)).searchParams.get("token")!;
    await expect(resetPassword({ token: first, password: "new lighthouse 22" })).rejects.toThrow(
      RESET_TEXT.invalid,
    );
    await expect(resetPassword({ token: "A".repeat(43), password: "new lighthouse 22" })).rejects.toThrow(
      RESET_TEXT.invalid,
    );
    await db.verificationToken.updateMany({
      where: { identifier: `reset-password:${user.id}` },
      data: { expires: new Date(Date.now() - 1000) },
    });
    await expect(resetPassword({ token: second, password: "new lighthouse 22" })).rejects.toThrow(
      RESET_TEXT.invalid,
    );
  });

  it("a Google-only account is told by email that it signs in with Google, with no link", async () => {
    const user = await createUser();
    expect(await requestPasswordReset({ email: user.email }, ip)).toBe(RESET_TEXT.sent);
    const [mail] = await resetMails(user.email);
    expect(mail.subject).toBe("Signing in to PactNexus");
    expect(mail.text).toContain("signs in with Google");
    expect(tokenOf(mail.text)).toBeNull();
  });
});

describe("change password (issue 18 item 5)", () => {
  it("needs the current password, then ends every session", async () => {
    const user = await withPassword();
    await expect(
      changePassword({ id: user.id }, { currentPassword: "wrong guess 1", password: "new lighthouse 22" }),
    ).rejects.toThrow(RESET_TEXT.wrongCurrent);
    const before = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    await changePassword(
      { id: user.id },
      { currentPassword: "old harbour 11", password: "new lighthouse 22" },
    );
    const after = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    expect(after.sessionVersion).toBe(before.sessionVersion + 1);
    await expect(
      verifyPasswordSignIn({ email: user.email, password: "new lighthouse 22" }),
    ).resolves.toBeTruthy();
    await expect(changePassword(null, { currentPassword: "x", password: "y" })).rejects.toThrow(
      "Please sign in first.",
    );
  });
});
