import { describe, expect, it } from "vitest";
import { LINK_REFUSED, pactNexusAdapter } from "@/lib/auth/adapter";
import { GOOGLE_UNVERIFIED_ERROR, oauthSignInAllowed } from "@/lib/auth/policy";
import { db } from "@/lib/db";
import { createUser } from "../helpers/factories";

// the Google accounts callbacks.signIn verified in this "request", with their email
const verified = new Map<string, string>([
  ["google:g-123", "linked@example.com"],
  ["google:g-other", "attacker@gmail.com"],
]);
const adapter = pactNexusAdapter({ verifiedEmailOf: (p, id) => verified.get(`${p}:${id}`) ?? null });

describe("pactNexusAdapter (OAuth users and accounts)", () => {
  it("creates users with a trimmed lower-case email and a name of at most 50 characters", async () => {
    const user = await adapter.createUser!({
      email: "  Grace.Hopper@Gmail.COM ",
      name: `  ${"G".repeat(70)}  `,
      image: "https://example.com/g.png",
      emailVerified: null,
    } as never);
    expect(user).toMatchObject({
      email: "grace.hopper@gmail.com",
      name: "G".repeat(50),
      image: "https://example.com/g.png",
    });
    expect(await adapter.getUserByEmail!("GRACE.HOPPER@gmail.com")).toMatchObject({ id: user.id });
    expect(await adapter.getUser!(user.id)).toMatchObject({ email: "grace.hopper@gmail.com" });
    expect(await adapter.getUser!("missing")).toBeNull();
  });

  it("links a Google account to an existing password account and finds the user by it", async () => {
    const existing = await createUser({ email: "linked@example.com", passwordHash: "$argon2id$placeholder" });
    expect(await adapter.getUserByAccount!({ provider: "google", providerAccountId: "g-123" })).toBeNull();
    await adapter.linkAccount!({
      userId: existing.id,
      type: "oauth",
      provider: "google",
      providerAccountId: "g-123",
      access_token: "at",
      expires_at: 1_900_000_000,
      token_type: "bearer",
      scope: "openid email profile",
      id_token: "idt",
    });
    expect(await adapter.getUserByAccount!({ provider: "google", providerAccountId: "g-123" })).toMatchObject(
      {
        id: existing.id,
        email: "linked@example.com",
      },
    );
    // the password stays: both ways now sign in to one account
    expect((await db.user.findUniqueOrThrow({ where: { id: existing.id } })).passwordHash).toBe(
      "$argon2id$placeholder",
    );

    await adapter.unlinkAccount!({ provider: "google", providerAccountId: "g-123" });
    expect(await adapter.getUserByAccount!({ provider: "google", providerAccountId: "g-123" })).toBeNull();
  });

  it("links a Google account only to the user with its verified email (issue 31)", async () => {
    const admin = await createUser({
      email: "admin-link@example.com",
      passwordHash: "$argon2id$placeholder",
    });
    const link = (providerAccountId: string) =>
      adapter.linkAccount!({ userId: admin.id, type: "oauth", provider: "google", providerAccountId });
    // another address (NextAuth links to whoever is signed in), and an account signIn never verified
    await expect(link("g-other")).rejects.toThrow(LINK_REFUSED);
    await expect(link("g-unknown")).rejects.toThrow(LINK_REFUSED);
    await expect(
      pactNexusAdapter().linkAccount!({
        userId: admin.id,
        type: "oauth",
        provider: "google",
        providerAccountId: "g-123",
      }),
    ).rejects.toThrow(LINK_REFUSED);
    expect(await db.account.count({ where: { userId: admin.id } })).toBe(0);
  });

  it("updates only the fields given, cutting the name to 50 characters", async () => {
    const user = await createUser({ email: "update@example.com", name: "Old" });
    const updated = await adapter.updateUser!({ id: user.id, name: "N".repeat(60) });
    expect(updated).toMatchObject({ email: "update@example.com", name: "N".repeat(50) });
  });
});

describe("oauthSignInAllowed", () => {
  it("admits a Google profile only with a verified email", () => {
    expect(oauthSignInAllowed("google", { email: "a@gmail.com", email_verified: true })).toBe(true);
    expect(oauthSignInAllowed("google", { email: "a@gmail.com", email_verified: false })).toEqual({
      error: GOOGLE_UNVERIFIED_ERROR,
    });
    expect(oauthSignInAllowed("google", { email: "a@gmail.com" })).toEqual({
      error: GOOGLE_UNVERIFIED_ERROR,
    });
    expect(oauthSignInAllowed("google", { email: "a@gmail.com", email_verified: "true" })).toEqual({
      error: GOOGLE_UNVERIFIED_ERROR,
    });
    expect(oauthSignInAllowed("google", { email_verified: true })).toEqual({
      error: GOOGLE_UNVERIFIED_ERROR,
    });
  });
});
