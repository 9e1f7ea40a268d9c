import { afterEach, describe, expect, it, vi } from "vitest";
import { authOptions, sessionCookie } from "@/lib/auth/options";
import { hashPassword } from "@/lib/auth/password";
import { createUser } from "@/tests/helpers/factories";

const { AuthHandler } = await import("@/tests/helpers/next-auth-core");

afterEach(() => vi.unstubAllEnvs());

type Cookie = {
  name: string;
  value: string;
  options: { httpOnly?: boolean; sameSite?: string | boolean; secure?: boolean; path?: string };
};

/** Signs in through NextAuth's own request handler with our options, as the browser form does. */
async function signIn(baseUrl: string, email: string, password: string) {
  vi.stubEnv("NEXTAUTH_URL", baseUrl);
  const options = authOptions();
  const csrf = await AuthHandler<{ csrfToken: string }>({
    req: { method: "GET", action: "csrf", headers: { host: new URL(baseUrl).host }, cookies: {}, query: {} },
    options,
  });
  const csrfCookie = (csrf.cookies as Cookie[]).find((c) => c.name.includes("csrf-token"))!;
  const res = await AuthHandler({
    req: {
      method: "POST",
      action: "callback",
      providerId: "credentials",
      headers: { host: new URL(baseUrl).host, "content-type": "application/x-www-form-urlencoded" },
      cookies: { [csrfCookie.name]: csrfCookie.value },
      query: {},
      body: { csrfToken: csrf.body!.csrfToken, email, password, json: "true" },
    },
    options,
  });
  return { csrfCookie, cookies: (res.cookies ?? []) as Cookie[] };
}

describe("session cookies", () => {
  it("in production (https): the session cookie is __Secure-, httpOnly, SameSite=Lax, Secure — and so is the CSRF cookie", async () => {
    const user = await createUser({ passwordHash: await hashPassword("correct horse 42") });
    const { cookies, csrfCookie } = await signIn("https://pacts.example.com", user.email, "correct horse 42");
    const session = cookies.find((c) => c.name.endsWith("next-auth.session-token"));
    expect(session, "a session cookie is set on a correct sign-in").toBeDefined();
    expect(session!.name).toBe("__Secure-next-auth.session-token");
    expect(session!.value.length).toBeGreaterThan(20);
    expect(session!.options).toMatchObject({ httpOnly: true, sameSite: "lax", secure: true, path: "/" });
    expect(csrfCookie.name).toBe("__Host-next-auth.csrf-token");
    expect(csrfCookie.options).toMatchObject({ httpOnly: true, sameSite: "lax", secure: true });
  });

  it("over plain http (localhost, e2e): httpOnly and SameSite=Lax, not Secure (the browser would drop it)", async () => {
    const user = await createUser({ passwordHash: await hashPassword("correct horse 42") });
    const { cookies } = await signIn("http://localhost:3000", user.email, "correct horse 42");
    const session = cookies.find((c) => c.name.endsWith("next-auth.session-token"));
    expect(session!.name).toBe("next-auth.session-token");
    expect(session!.options).toMatchObject({ httpOnly: true, sameSite: "lax", secure: false, path: "/" });
  });

  it("a wrong password sets no session cookie", async () => {
    const user = await createUser({ passwordHash: await hashPassword("correct horse 42") });
    const { cookies } = await signIn("https://pacts.example.com", user.email, "wrong horse 42");
    expect(cookies.find((c) => c.name.endsWith("session-token"))).toBeUndefined();
  });

  it("the options follow NEXTAUTH_URL, else APP_URL", () => {
    vi.stubEnv("NEXTAUTH_URL", "");
    vi.stubEnv("APP_URL", "https://pacts.example.com");
    expect(authOptions().useSecureCookies).toBe(true);
    expect(authOptions().cookies?.sessionToken).toEqual(sessionCookie(true));
    vi.stubEnv("APP_URL", "http://localhost:3011");
    expect(authOptions().useSecureCookies).toBe(false);
    expect(authOptions().cookies?.sessionToken?.options).toMatchObject({
      httpOnly: true,
      sameSite: "lax",
      secure: false,
    });
  });

  it("the sign-in redirect stays inside the app and never throws on a malformed callbackUrl", async () => {
    const redirect = authOptions().callbacks!.redirect!;
    const baseUrl = "https://pacts.example.com";
    const to = (url: unknown) => redirect({ url: url as string, baseUrl });
    expect(await to("/profile")).toBe("https://pacts.example.com/profile");
    expect(await to("https://pacts.example.com/campaign/abc")).toBe("https://pacts.example.com/campaign/abc");
    expect(await to("https://evil.example/phish")).toBe(baseUrl);
    expect(await to("someone@example.test")).toBe(baseUrl);
    expect(await to(-1)).toBe(baseUrl);
  });
});
