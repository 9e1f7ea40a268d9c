import { describe, expect, it, vi } from "vitest";
import { authOptions } from "@/lib/auth/options";
import { hashPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { env, googleTestIssuer } from "@/lib/env";
import { createUser } from "../helpers/factories";

// Google is configured for this file (lib/env reads the environment once, lazily).
process.env.GOOGLE_CLIENT_ID = "test-client.apps.googleusercontent.com";
process.env.GOOGLE_CLIENT_SECRET = "test-secret";
process.env.ADMIN_EMAILS = "g-admin@gmail.com, g-admin3@gmail.com";

type Authorize = (credentials: unknown, req: { headers: Record<string, string> }) => Promise<unknown>;
const credentials = () => {
  const provider = authOptions().providers.find((p) => p.id === "credentials") as unknown as {
    options: { authorize: Authorize };
  };
  return provider.options.authorize;
};

async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return err as Error;
  }
  throw new Error("expected a rejection");
}

describe("NextAuth options", () => {
  it("uses JWT sessions, the /profile page, and offers Google only when configured", () => {
    const options = authOptions();
    expect(options.session?.strategy).toBe("jwt");
    expect(options.pages).toEqual({ signIn: "/profile", error: "/profile" });
    expect(options.providers.map((p) => p.id)).toEqual(["credentials", "google"]);
  });

  it("credentials: signs in, and passes SPEC texts (only) back to the form", async () => {
    const user = await createUser({
      email: "form@example.com",
      name: "Form",
      passwordHash: await hashPassword("form-password-1"),
    });
    const authorize = credentials();
    await expect(
      authorize({ email: "Form@Example.com", password: "form-password-1", csrfToken: "x" }, { headers: {} }),
    ).resolves.toEqual({
      id: user.id,
      email: "form@example.com",
      name: "Form",
    });
    expect(
      (await rejection(authorize({ email: "form@example.com", password: "wrong-password" }, { headers: {} })))
        .message,
    ).toBe("Incorrect password");
    expect(
      (await rejection(authorize({ email: "none@example.com", password: "wrong-password" }, { headers: {} })))
        .message,
    ).toBe("No account found with this email");
    expect((await rejection(authorize(undefined, { headers: {} }))).message).toBe("Email is required");
  });

  it("credentials: counts failures per client address (the one the front server set)", async () => {
    const authorize = credentials();
    const from = (ip: string) => ({ headers: { "x-pactnexus-client-ip": ip } });
    for (let i = 0; i < 20; i++)
      await rejection(
        authorize({ email: `ip-spray-${i}@example.com`, password: "whatever-1" }, from("203.0.113.80")),
      );
    expect(
      (
        await rejection(
          authorize({ email: "ip-spray-x@example.com", password: "whatever-1" }, from("203.0.113.80")),
        )
      ).message,
    ).toBe("Too many attempts. Try again in 15 minutes.");
    expect(
      (
        await rejection(
          authorize({ email: "ip-spray-x@example.com", password: "whatever-1" }, from("203.0.113.81")),
        )
      ).message,
    ).toBe("No account found with this email");
  });

  it("credentials: an unexpected failure answers 'Authentication failed' and is logged, never shown", async () => {
    const logged = vi.spyOn(console, "error").mockImplementation(() => {});
    const spy = vi
      .spyOn(db.user, "findUnique")
      .mockRejectedValueOnce(new Error("internal detail: relation missing"));
    const err = await rejection(
      credentials()({ email: "boom@example.com", password: "whatever-1" }, { headers: {} }),
    );
    expect(err.message).toBe("Authentication failed");
    expect(logged).toHaveBeenCalled();
    spy.mockRestore();
  });

  it("Google: refuses an unverified email, admits a verified one, and stores a clean profile", async () => {
    const options = authOptions();
    const signIn = options.callbacks!.signIn!;
    const account = { type: "oauth", provider: "google", providerAccountId: "g-1" } as never;
    await expect(
      signIn({
        user: {} as never,
        account,
        profile: { email: "x@gmail.com", email_verified: false } as never,
      }),
    ).resolves.toBe("/profile?error=GoogleEmailUnverified");
    await expect(
      signIn({
        user: {} as never,
        account,
        profile: { email: "x@gmail.com", email_verified: true } as never,
      }),
    ).resolves.toBe(true);
    await expect(
      signIn({ user: {} as never, account: { type: "credentials", provider: "credentials" } as never }),
    ).resolves.toBe(true);

    const google = options.providers.find((p) => p.id === "google") as unknown as {
      options: { profile: (p: unknown) => unknown };
    };
    expect(
      google.options.profile({
        sub: "g-1",
        name: ` ${"L".repeat(80)} `,
        email: " Long.Name@Gmail.com ",
        picture: "https://x/p.png",
      }),
    ).toEqual({
      id: "g-1",
      name: "L".repeat(50),
      email: "long.name@gmail.com",
      image: "https://x/p.png",
    });
  });

  it("Google: ADMIN_EMAILS grants admin when the account signs in (Google verified the address)", async () => {
    const user = await createUser({ email: "g-admin@gmail.com" });
    await authOptions().events!.signIn!({
      user: { id: user.id, email: user.email },
      account: { type: "oauth", provider: "google" } as never,
      profile: { email: user.email },
    } as never);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).isAdmin).toBe(true);
  });

  it("Google: a Google-verified sign-in confirms the address, so ADMIN_EMAILS applies", async () => {
    const user = await createUser({ email: "g-admin2@gmail.com" });
    await authOptions().events!.signIn!({
      user: { id: user.id, email: user.email },
      account: { type: "oauth", provider: "google" } as never,
      profile: { email: user.email },
    } as never);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).emailVerified).toBeInstanceOf(Date);
  });

  it("Google: a Google account of another address verifies nothing, joins nothing, grants nothing (issue 31)", async () => {
    // NextAuth linked it to whoever was signed in: events get that user and the Google profile
    const user = await createUser({
      email: "g-admin3@gmail.com",
      passwordHash: await hashPassword("squatter-pass-1"),
    });
    const events = authOptions().events!;
    const seen = { user: { id: user.id, email: user.email }, profile: { email: "Attacker@Gmail.com" } };
    await events.linkAccount!({
      ...seen,
      account: { type: "oauth", provider: "google", providerAccountId: "g-x" },
    } as never);
    await events.signIn!({ ...seen, account: { type: "oauth", provider: "google" } } as never);
    await events.signIn!({ user: seen.user, account: { type: "oauth", provider: "google" } } as never);
    expect(await db.user.findUniqueOrThrow({ where: { id: user.id } })).toMatchObject({
      emailVerified: null,
      isAdmin: false,
      sessionVersion: 0,
      passwordHash: expect.any(String),
    });
  });

  it("Google joining a never-confirmed password account removes that password and ends its sessions (pre-hijack)", async () => {
    // an attacker registered the victim's address with a password and never confirmed it
    const victim = await createUser({
      email: "victim@gmail.com",
      passwordHash: await hashPassword("attacker-password-1"),
    });
    const authorize = credentials();
    await expect(
      authorize({ email: "victim@gmail.com", password: "attacker-password-1" }, { headers: {} }),
    ).resolves.toMatchObject({ id: victim.id });
    // the real owner signs in with Google: NextAuth links the Google account to that user
    const events = authOptions().events!;
    await events.linkAccount!({
      user: { id: victim.id, email: victim.email },
      account: { type: "oauth", provider: "google", providerAccountId: "g-victim" },
      profile: { email: victim.email },
    } as never);
    await events.signIn!({
      user: { id: victim.id, email: victim.email },
      account: { type: "oauth", provider: "google" } as never,
      profile: { email: victim.email },
    } as never);
    const row = await db.user.findUniqueOrThrow({ where: { id: victim.id } });
    expect(row).toMatchObject({ passwordHash: null, sessionVersion: 1, emailVerified: expect.any(Date) });
    expect(
      (
        await rejection(
          authorize({ email: "victim@gmail.com", password: "attacker-password-1" }, { headers: {} }),
        )
      ).message,
    ).toBe("This account signs in with Google. Use Continue with Google.");
    // the owner's new token carries the new session version
    const token = await authOptions().callbacks!.jwt!({ token: {}, user: { id: victim.id } } as never);
    expect(token).toMatchObject({ sub: victim.id, sv: 1 });
  });

  it("Google joining a confirmed password account keeps its password", async () => {
    const owner = await createUser({
      email: "owner@gmail.com",
      passwordHash: await hashPassword("owner-password-1"),
    });
    await db.user.update({ where: { id: owner.id }, data: { emailVerified: new Date() } });
    await authOptions().events!.linkAccount!({
      user: { id: owner.id, email: owner.email },
      account: { type: "oauth", provider: "google", providerAccountId: "g-owner" },
      profile: { email: owner.email },
    } as never);
    expect(await db.user.findUniqueOrThrow({ where: { id: owner.id } })).toMatchObject({
      sessionVersion: 0,
      passwordHash: expect.any(String),
    });
  });

  it("GOOGLE_TEST_ISSUER sends Google sign-in to a local issuer only when it is a loopback URL", () => {
    const wellKnown = () =>
      (
        authOptions().providers.find((p) => p.id === "google") as unknown as {
          options: { wellKnown?: string };
        }
      ).options.wellKnown;
    const set = (value: string | undefined) => {
      if (value === undefined) delete process.env.GOOGLE_TEST_ISSUER;
      else process.env.GOOGLE_TEST_ISSUER = value;
      // lib/env parses once per DATABASE_URL: nudge it to read the environment again
      const url = process.env.DATABASE_URL!;
      process.env.DATABASE_URL = `${url}${url.includes("?") ? "&" : "?"}reparse=1`;
      env();
      process.env.DATABASE_URL = url;
    };
    try {
      set(undefined);
      expect(wellKnown()).toBeUndefined(); // Google's own discovery document (the provider's default)
      for (const local of ["http://127.0.0.1:4455", "http://localhost:4455/", "http://[::1]:4455"]) {
        set(local);
        expect(googleTestIssuer()).toEqual({ issuer: local.replace(/\/$/, "") });
        expect(wellKnown()).toBe(`${local.replace(/\/$/, "")}/.well-known/openid-configuration`);
      }
      for (const remote of [
        "https://accounts.example.com",
        "http://127.0.0.1.example.com",
        "file:///tmp/x",
        "x",
      ]) {
        set(remote);
        expect(googleTestIssuer().issuer).toBeUndefined();
        expect(googleTestIssuer().ignored).toMatch(/loopback|not a URL/);
        expect(wellKnown()).toBeUndefined();
      }
      // a loopback issuer is still ignored when the app itself is public (a mistaken production setting)
      set("http://127.0.0.1:4455");
      process.env.APP_URL = "https://pactnexus.example";
      set("http://127.0.0.1:4455");
      expect(googleTestIssuer()).toEqual({
        ignored: "the app's own address (APP_URL / NEXTAUTH_URL) is not a loopback URL",
      });
      expect(wellKnown()).toBeUndefined();
    } finally {
      delete process.env.APP_URL;
      set(undefined);
    }
  });
});

describe("the Google callback's return path (issue 31)", () => {
  const redirect = (url: unknown) =>
    authOptions().callbacks!.redirect!({ url: url as string, baseUrl: "http://localhost:3000" });
  it("sends nothing that normalises to another host anywhere but home", async () => {
    for (const bad of [
      "/.//evil.com",
      "/a/..//evil.com",
      "/%2e//evil.com",
      "/\\evil.com",
      "/%5cevil.com",
      "/\t/evil.com",
      "/\n/evil.com",
      "//evil.com",
      "javascript:alert(1)",
      "https://evil.com/x",
      "http://localhost:3000/.//evil.com",
      "http://localhost:3000/%2e//evil.com",
      "not a url",
      42,
    ])
      expect(await redirect(bad), JSON.stringify(bad)).toBe("http://localhost:3000");
  });
  it("keeps app paths, NextAuth's own pages and same-origin URLs", async () => {
    expect(await redirect("/campaign/c1?commit=1")).toBe("http://localhost:3000/campaign/c1?commit=1");
    expect(await redirect("/profile?error=OAuthCallback")).toBe(
      "http://localhost:3000/profile?error=OAuthCallback",
    );
    expect(await redirect("http://localhost:3000/pledges/p1/pay")).toBe(
      "http://localhost:3000/pledges/p1/pay",
    );
  });
});
