import { beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { hashPassword, verifyPassword } from "@/lib/auth/password";
import { SIGN_IN_FAILS_PER_EMAIL, SIGN_IN_FAILS_PER_IP, verifyPasswordSignIn } from "@/lib/auth/service";
import { db } from "@/lib/db";
import { createUser } from "../helpers/factories";

// Count password checks, so a test can tell a refused attempt never reached one.
vi.mock("@/lib/auth/password", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/auth/password")>();
  return { ...real, verifyPassword: vi.fn(real.verifyPassword) };
});
const passwordChecks = vi.mocked(verifyPassword);

// Read by lib/env on first use (it parses the environment lazily, once).
process.env.ADMIN_EMAILS = "chief@example.com";

const PASSWORD = "correct-horse-battery";
let hash: string;

async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error("expected a rejection");
}

beforeAll(async () => {
  hash = await hashPassword(PASSWORD);
});

beforeEach(async () => {
  passwordChecks.mockClear();
  await db.rateLimitHit.deleteMany({});
});

describe("verifyPasswordSignIn", () => {
  it("signs in with the email in any case and surrounding spaces", async () => {
    const user = await createUser({ email: "mixed@example.com", name: "Mixed", passwordHash: hash });
    await expect(
      verifyPasswordSignIn({ email: "  MIXED@Example.com ", password: PASSWORD }, { ip: "203.0.113.1" }),
    ).resolves.toEqual({
      id: user.id,
      email: "mixed@example.com",
      name: "Mixed",
    });
  });

  it("answers 'No account found with this email' for an unknown email", async () => {
    const err = await rejection(
      verifyPasswordSignIn({ email: "nobody@example.com", password: PASSWORD }, { ip: "203.0.113.2" }),
    );
    expect(err.message).toBe("No account found with this email");
    expect(err.code).toBe("UNAUTHENTICATED");
  });

  it("answers 'Incorrect password' for a wrong password", async () => {
    await createUser({ email: "wrong@example.com", passwordHash: hash });
    const err = await rejection(
      verifyPasswordSignIn(
        { email: "wrong@example.com", password: "not-the-password" },
        { ip: "203.0.113.3" },
      ),
    );
    expect(err.message).toBe("Incorrect password");
  });

  it("answers 'Invalid email address' for a malformed email, without a password check", async () => {
    const err = await rejection(
      verifyPasswordSignIn({ email: "nope", password: PASSWORD }, { ip: "203.0.113.4" }),
    );
    expect(err.message).toBe("Invalid email address");
    expect(err.code).toBe("BAD_REQUEST");
    expect(passwordChecks).not.toHaveBeenCalled();
  });

  it("tells a Google-only account to use Google", async () => {
    await createUser({ email: "google-only@example.com", passwordHash: null });
    const err = await rejection(
      verifyPasswordSignIn({ email: "google-only@example.com", password: PASSWORD }, { ip: "203.0.113.5" }),
    );
    expect(err.message).toBe("This account signs in with Google. Use Continue with Google.");
  });

  it("grants admin at sign-in to an address in ADMIN_EMAILS once it is confirmed and its password set through an emailed link (issues 13, 31: not before)", async () => {
    const chief = await createUser({ email: "chief@example.com", passwordHash: hash });
    expect(chief.isAdmin).toBe(false);
    await verifyPasswordSignIn({ email: "Chief@example.com", password: PASSWORD }, { ip: "203.0.113.6" });
    expect((await db.user.findUniqueOrThrow({ where: { id: chief.id } })).isAdmin).toBe(false);
    // issue 31: a verified address is not enough while the password may be the one a squatter chose at sign-up
    await db.user.update({ where: { id: chief.id }, data: { emailVerified: new Date() } });
    await verifyPasswordSignIn({ email: "Chief@example.com", password: PASSWORD }, { ip: "203.0.113.6" });
    expect((await db.user.findUniqueOrThrow({ where: { id: chief.id } })).isAdmin).toBe(false);
    // ... the password set through an emailed link (confirmation or reset) makes the account the owner's
    await db.user.update({ where: { id: chief.id }, data: { passwordSetViaEmailAt: new Date() } });
    await verifyPasswordSignIn({ email: "Chief@example.com", password: PASSWORD }, { ip: "203.0.113.6" });
    expect((await db.user.findUniqueOrThrow({ where: { id: chief.id } })).isAdmin).toBe(true);
  });
});

describe("sign-in throttling", () => {
  it(`refuses the attempt after ${SIGN_IN_FAILS_PER_EMAIL} failures for one email, without checking the password, even a correct one`, async () => {
    await createUser({ email: "victim@example.com", passwordHash: hash });
    for (let i = 0; i < SIGN_IN_FAILS_PER_EMAIL; i++) {
      const err = await rejection(
        verifyPasswordSignIn(
          { email: "victim@example.com", password: `guess-${i}-xx` },
          { ip: `198.51.100.${i}` },
        ),
      );
      expect(err.message).toBe("Incorrect password");
    }
    expect(passwordChecks).toHaveBeenCalledTimes(SIGN_IN_FAILS_PER_EMAIL);

    for (const password of ["guess-6-xx", PASSWORD]) {
      const err = await rejection(
        verifyPasswordSignIn({ email: "VICTIM@example.com", password }, { ip: "198.51.100.99" }),
      );
      expect(err.code).toBe("RATE_LIMITED");
      expect(err.message).toBe("Too many attempts. Try again in 15 minutes.");
    }
    expect(passwordChecks).toHaveBeenCalledTimes(SIGN_IN_FAILS_PER_EMAIL); // no check for the refused ones

    // another account from the same IPs is not affected
    await createUser({ email: "bystander@example.com", passwordHash: hash });
    await expect(
      verifyPasswordSignIn({ email: "bystander@example.com", password: PASSWORD }, { ip: "198.51.100.99" }),
    ).resolves.toBeTruthy();
  });

  it("counts attempts for unknown emails too, and says how long to wait", async () => {
    const fourteenMinutesAgo = new Date(Date.now() - 14 * 60_000);
    await db.rateLimitHit.createMany({
      data: Array.from({ length: SIGN_IN_FAILS_PER_EMAIL }, () => ({
        key: "signin-fail:email:ghost@example.com",
        createdAt: fourteenMinutesAgo,
      })),
    });
    const err = await rejection(
      verifyPasswordSignIn({ email: "ghost@example.com", password: PASSWORD }, { ip: null }),
    );
    expect(err.message).toBe("Too many attempts. Try again in 1 minute.");
  });

  it("forgets failures older than 15 minutes", async () => {
    await createUser({ email: "patient@example.com", passwordHash: hash });
    await db.rateLimitHit.createMany({
      data: Array.from({ length: 10 }, () => ({
        key: "signin-fail:email:patient@example.com",
        createdAt: new Date(Date.now() - 16 * 60_000),
      })),
    });
    await expect(
      verifyPasswordSignIn({ email: "patient@example.com", password: PASSWORD }, { ip: null }),
    ).resolves.toBeTruthy();
  });

  it("does not count a successful sign-in as a failure", async () => {
    await createUser({ email: "typo@example.com", passwordHash: hash });
    for (let i = 0; i < SIGN_IN_FAILS_PER_EMAIL - 1; i++) {
      await rejection(
        verifyPasswordSignIn({ email: "typo@example.com", password: "typo-typo" }, { ip: null }),
      );
    }
    for (let i = 0; i < 3; i++) {
      await expect(
        verifyPasswordSignIn({ email: "typo@example.com", password: PASSWORD }, { ip: null }),
      ).resolves.toBeTruthy();
    }
    // still one failure left before the limit
    expect(
      (
        await rejection(
          verifyPasswordSignIn({ email: "typo@example.com", password: "typo-typo" }, { ip: null }),
        )
      ).message,
    ).toBe("Incorrect password");
    expect(
      (await rejection(verifyPasswordSignIn({ email: "typo@example.com", password: PASSWORD }, { ip: null })))
        .code,
    ).toBe("RATE_LIMITED");
  });

  it(`refuses an IP after ${SIGN_IN_FAILS_PER_IP} failures across emails; another IP still signs in`, async () => {
    const ip = "192.0.2.44";
    for (let i = 0; i < SIGN_IN_FAILS_PER_IP; i++) {
      const err = await rejection(
        verifyPasswordSignIn({ email: `spray${i}@example.com`, password: PASSWORD }, { ip }),
      );
      expect(err.message).toBe("No account found with this email");
    }
    await createUser({ email: "fresh@example.com", passwordHash: hash });
    const err = await rejection(
      verifyPasswordSignIn({ email: "fresh@example.com", password: PASSWORD }, { ip }),
    );
    expect(err.message).toBe("Too many attempts. Try again in 15 minutes.");
    await expect(
      verifyPasswordSignIn({ email: "fresh@example.com", password: PASSWORD }, { ip: "192.0.2.45" }),
    ).resolves.toBeTruthy();
  });

  it("holds against a burst of parallel guesses: at most 5 reach a password check", async () => {
    await createUser({ email: "burst@example.com", passwordHash: hash });
    const results = await Promise.allSettled(
      Array.from({ length: 12 }, (_, i) =>
        verifyPasswordSignIn(
          { email: "burst@example.com", password: `parallel-${i}` },
          { ip: `10.1.0.${i}` },
        ),
      ),
    );
    const messages = results.map((r) =>
      r.status === "rejected" ? (r.reason as Error).message : "signed in",
    );
    expect(messages.filter((m) => m === "Incorrect password")).toHaveLength(SIGN_IN_FAILS_PER_EMAIL);
    expect(messages.filter((m) => m.startsWith("Too many attempts."))).toHaveLength(
      12 - SIGN_IN_FAILS_PER_EMAIL,
    );
    expect(passwordChecks).toHaveBeenCalledTimes(SIGN_IN_FAILS_PER_EMAIL);
  });
});
