import { spawnSync } from "node:child_process";
import path from "node:path";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { encode } from "next-auth/jwt";
// before anything that imports next/headers: the mock below hands out this module's cookies
import { actAs, headersMock } from "@/tests/security/harness";
import { setAdminByEmail } from "@/lib/auth/service";
import { getViewer, requireAdmin, requireUser } from "@/lib/access/viewer";
import { db } from "@/lib/db";
import { hashPassword } from "@/lib/auth/password";
import { createUser } from "../helpers/factories";

// The session is the signed JWT's content (a real token in the request's cookies, see
// tests/security/harness); roles must come from the database on every request.
vi.mock("next/headers", () => headersMock);
const signInAs = (id: string | null) => actAs(id ? { id, email: "from-token@example.com" } : null);

async function rejection(p: Promise<unknown>) {
  try {
    await p;
  } catch (err) {
    return err as Error & { code?: string };
  }
  throw new Error("expected a rejection");
}

beforeEach(() => actAs(null));

describe("getViewer / requireUser / requireAdmin", () => {
  it("refuses a signed-out request", async () => {
    signInAs(null);
    expect(await getViewer()).toBeNull();
    expect((await rejection(requireUser())).code).toBe("UNAUTHENTICATED");
    expect((await rejection(requireAdmin())).code).toBe("UNAUTHENTICATED");
  });

  it("reads the user from the database, not from the token", async () => {
    const user = await createUser({ email: "reader@example.com", name: "Reader" });
    signInAs(user.id);
    expect(await getViewer()).toEqual({
      id: user.id,
      email: "reader@example.com",
      name: "Reader",
      isAdmin: false,
    });
    expect((await rejection(requireAdmin())).message).toBe("Access denied. Admin privileges required.");
  });

  it("a revoked admin loses access on the next request, with the same session", async () => {
    const admin = await createUser({ email: "was-admin@example.com", isAdmin: true });
    signInAs(admin.id);
    await expect(requireAdmin()).resolves.toMatchObject({ id: admin.id, isAdmin: true });

    await setAdminByEmail("Was-Admin@example.com", false);
    const err = await rejection(requireAdmin());
    expect(err.code).toBe("FORBIDDEN");
    await expect(requireUser()).resolves.toMatchObject({ id: admin.id, isAdmin: false });
  });

  it("a session from before the user signed out (on any device) is a signed-out request", async () => {
    const { endAllSessions } = await import("@/lib/auth/service");
    const user = await createUser();
    signInAs(user.id);
    expect((await getViewer())?.id).toBe(user.id);
    await endAllSessions(user.id, 0);
    expect(await getViewer()).toBeNull();
    expect((await rejection(requireUser())).code).toBe("UNAUTHENTICATED");
    // a stale token cannot end the sessions issued after it
    await endAllSessions(user.id, 0);
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).sessionVersion).toBe(1);
  });

  it("a token that does not decode, or has expired, is a signed-out request", async () => {
    const user = await createUser();
    const cookie = (value: string) => ({
      get: (n: string) => (n === "next-auth.session-token" ? { name: n, value } : undefined),
      getAll: () => [{ name: "next-auth.session-token", value }],
      has: () => true,
    });
    const { sessionUserId } = await import("@/lib/access/session-cookie");
    expect(
      await sessionUserId(
        cookie(await encode({ token: { sub: user.id }, secret: process.env.NEXTAUTH_SECRET! })),
      ),
    ).toBe(user.id);
    expect(
      await sessionUserId(cookie(await encode({ token: { sub: user.id }, secret: "another-secret" }))),
    ).toBeNull();
    expect(
      await sessionUserId(
        cookie(await encode({ token: { sub: user.id }, secret: process.env.NEXTAUTH_SECRET!, maxAge: -60 })),
      ),
    ).toBeNull();
    expect(await sessionUserId(cookie("not-a-token"))).toBeNull();
    // the key is derived once per secret (issue 35): a token of the first secret still decodes after
    // another secret's, and NextAuth's 15 s clock tolerance holds (expired 5 s ago: still signed in)
    expect(
      await sessionUserId(
        cookie(await encode({ token: { sub: user.id }, secret: process.env.NEXTAUTH_SECRET!, maxAge: -5 })),
      ),
    ).toBe(user.id);
    // a large token split by NextAuth into numbered cookies is joined in order
    const token = await encode({ token: { sub: user.id }, secret: process.env.NEXTAUTH_SECRET! });
    const parts = [token.slice(0, 40), token.slice(40, 90), token.slice(90)].map((value, i) => ({
      name: `next-auth.session-token.${i}`,
      value,
    }));
    expect(await sessionUserId({ get: () => undefined, getAll: () => [parts[2], parts[0], parts[1]] })).toBe(
      user.id,
    );
  });

  it("a deleted account is signed out even with a valid token", async () => {
    const gone = await createUser();
    signInAs(gone.id);
    await db.user.delete({ where: { id: gone.id } });
    expect(await getViewer()).toBeNull();
  });
});

describe("npm run user:admin", () => {
  const root = path.resolve(__dirname, "../..");
  const cli = (...args: string[]) => {
    const r = spawnSync(
      process.execPath,
      [
        path.join(root, "node_modules/tsx/dist/cli.mjs"),
        "--conditions=react-server",
        "scripts/user-admin.ts",
        ...args,
      ],
      {
        cwd: root,
        env: { ...process.env, DATABASE_URL: process.env.DATABASE_URL },
        encoding: "utf8",
        timeout: 60_000,
      },
    );
    return { code: r.status, out: r.stdout.trim(), err: r.stderr.trim() };
  };

  it("grants admin, says so when nothing changes, revokes, and the viewer follows at once", async () => {
    const user = await createUser({ email: "promote-me@example.com" });
    signInAs(user.id);
    expect((await rejection(requireAdmin())).code).toBe("FORBIDDEN");

    expect(cli("Promote-Me@Example.com")).toEqual({
      code: 0,
      out: "promote-me@example.com is now an admin.",
      err: "",
    });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).isAdmin).toBe(true);
    await expect(requireAdmin()).resolves.toMatchObject({ id: user.id });

    expect(cli("promote-me@example.com").out).toBe(
      "promote-me@example.com is already an admin; nothing changed.",
    );

    expect(cli("promote-me@example.com", "--revoke")).toEqual({
      code: 0,
      out: "promote-me@example.com is no longer an admin.",
      err: "",
    });
    expect((await db.user.findUniqueOrThrow({ where: { id: user.id } })).isAdmin).toBe(false);
    expect((await rejection(requireAdmin())).code).toBe("FORBIDDEN");
  }, 60_000);

  it("prints a one-hour password-reset link for an account with a password (issue 18)", async () => {
    const user = await createUser({ email: "forgot-it@example.com" });
    expect(cli("forgot-it@example.com", "--reset-link")).toMatchObject({
      code: 1,
      err: "forgot-it@example.com signs in with Google; it has no password.",
    });
    await db.user.update({
      where: { id: user.id },
      data: { passwordHash: await hashPassword("old harbour 11") },
    });
    const r = cli("forgot-it@example.com", "--reset-link");
    expect(r.code).toBe(0);
    expect(r.out).toMatch(
      /^Password-reset link for forgot-it@example.com \(works once, within an hour\):\n.+\/reset-password\?token=[A-Za-z0-9_-]{40,}$/,
    );
  }, 60_000);

  it("says clearly when the user does not exist, and exits with 1", () => {
    const r = cli("nobody-here@example.com");
    expect(r.code).toBe(1);
    expect(r.out).toBe("");
    expect(r.err).toBe("No user with the email nobody-here@example.com. They must sign up first.");
  }, 60_000);

  it("prints the usage for missing or unknown arguments", () => {
    for (const args of [
      [],
      ["a@b.co", "--force"],
      ["a@b.co", "c@d.co"],
      ["a@b.co", "--revoke", "--reset-link"],
    ]) {
      const r = cli(...args);
      expect(r.code).toBe(2);
      expect(r.err).toBe("Usage: npm run user:admin -- <email> [--revoke | --reset-link]");
    }
    expect(cli("not-an-email")).toMatchObject({ code: 1, err: "Invalid email address: not-an-email" });
  }, 60_000);
});
