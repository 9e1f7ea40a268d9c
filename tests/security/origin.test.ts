import { afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { CROSS_ORIGIN_MESSAGE, handle, requireSameOrigin } from "@/lib/http";
import type { Viewer } from "@/lib/access/viewer";
import { createUser } from "@/tests/helpers/factories";

let viewer: Viewer | null = null;
vi.mock("@/lib/access/viewer", () => ({ getViewer: async () => viewer, requireUser: async () => viewer }));

const { POST: createSetupIntent } = await import("@/app/api/create-setup-intent/route");
const { POST: webhook } = await import("@/app/api/stripe/webhook/route");

const req = (method: string, headers: Record<string, string>) =>
  new Request("http://pacts.example.com/api/x", {
    method,
    headers: { host: "pacts.example.com", ...headers },
    body: method === "GET" || method === "HEAD" ? undefined : "{}",
  });

const verdict = (r: Request) => {
  try {
    requireSameOrigin(r);
    return "allowed";
  } catch (err) {
    expect((err as { code: string }).code).toBe("FORBIDDEN");
    expect((err as Error).message).toBe(CROSS_ORIGIN_MESSAGE);
    return "refused";
  }
};

afterEach(() => {
  viewer = null;
  vi.unstubAllEnvs();
});

describe("requireSameOrigin (mutating route handlers)", () => {
  it("allows the app's own origin and requests without Origin (non-browser clients)", () => {
    expect(verdict(req("POST", { origin: "http://pacts.example.com" }))).toBe("allowed");
    expect(verdict(req("POST", { origin: "https://PACTS.example.com" }))).toBe("allowed");
    expect(verdict(req("POST", {}))).toBe("allowed");
    expect(verdict(req("POST", { "sec-fetch-site": "same-origin" }))).toBe("allowed");
  });

  it("refuses another site, a look-alike host, another port, an opaque origin and a browser's cross-site request", () => {
    expect(verdict(req("POST", { origin: "https://evil.example" }))).toBe("refused");
    expect(verdict(req("POST", { origin: "https://pacts.example.com.evil.example" }))).toBe("refused");
    expect(verdict(req("POST", { origin: "http://pacts.example.com:8080" }))).toBe("refused");
    expect(verdict(req("PUT", { origin: "null" }))).toBe("refused");
    expect(verdict(req("DELETE", { origin: "not a url" }))).toBe("refused");
    expect(verdict(req("POST", { "sec-fetch-site": "cross-site" }))).toBe("refused");
  });

  it("accepts the public URL behind a proxy (X-Forwarded-Host or APP_URL)", () => {
    const proxied = req("POST", {
      host: "10.0.0.5:3000",
      "x-forwarded-host": "pacts.example.com",
      origin: "https://pacts.example.com",
    });
    expect(verdict(proxied)).toBe("allowed");
    const internal = new Request("http://10.0.0.5:3000/api/x", {
      method: "POST",
      headers: { host: "10.0.0.5:3000", origin: "https://www.pacts.example.com" },
    });
    expect(verdict(internal)).toBe("refused");
    vi.stubEnv("APP_URL", "https://www.pacts.example.com");
    expect(verdict(internal)).toBe("allowed");
  });

  it("does not check safe methods", () => {
    expect(verdict(req("GET", { origin: "https://evil.example" }))).toBe("allowed");
    expect(verdict(req("HEAD", { origin: "https://evil.example" }))).toBe("allowed");
  });
});

describe("handle() applies the check before the handler runs", () => {
  it("answers 403 with a message to a cross-site POST and never calls the handler", async () => {
    const inner = vi.fn(async (_req: Request) => Response.json({ ok: true }));
    const res = await handle(inner)(req("POST", { origin: "https://evil.example" }));
    expect(res.status).toBe(403);
    expect(await res.json()).toEqual({ error: { code: "FORBIDDEN", message: CROSS_ORIGIN_MESSAGE } });
    expect(inner).not.toHaveBeenCalled();
  });

  it("a real endpoint: a cross-site create-setup-intent by a signed-in user writes nothing; same-origin works", async () => {
    const user = await createUser();
    viewer = { id: user.id, email: user.email, name: user.name, isAdmin: false };
    const before = await db.user.findUniqueOrThrow({ where: { id: user.id } });
    const bad = await createSetupIntent(
      new Request("http://localhost:3000/api/create-setup-intent", {
        method: "POST",
        headers: {
          host: "localhost:3000",
          origin: "https://evil.example",
          "content-type": "application/json",
        },
        body: "{}",
      }),
    );
    expect(bad.status).toBe(403);
    expect(await db.user.findUniqueOrThrow({ where: { id: user.id } })).toEqual(before);
    const good = await createSetupIntent(
      new Request("http://localhost:3000/api/create-setup-intent", {
        method: "POST",
        headers: {
          host: "localhost:3000",
          origin: "http://localhost:3000",
          "content-type": "application/json",
        },
        body: "{}",
      }),
    );
    expect(good.status).toBe(200);
    expect((await good.json()).clientSecret).toEqual(expect.any(String));
  });

  it("exempts the signed Stripe webhook: a foreign Origin reaches the webhook's own checks", async () => {
    const res = await webhook(
      new Request("http://localhost:3000/api/stripe/webhook", {
        method: "POST",
        headers: {
          host: "localhost:3000",
          origin: "https://stripe.example",
          "stripe-signature": "t=1,v1=bad",
        },
        body: "{}",
      }),
    );
    const body = await res.json();
    expect(res.status).not.toBe(403);
    expect(body.error.message).not.toBe(CROSS_ORIGIN_MESSAGE);
    // no webhook secret in this test environment: the handler itself answers that it is not configured
    expect(body.error.message).toBe("Stripe webhooks are not configured on this server.");
  });
});
