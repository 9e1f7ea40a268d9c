import fc from "fast-check";
import Stripe from "stripe";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createDemoSetupSecret } from "@/lib/payments/demo-gateway";
import { actAs, closeFingerprintPool, headersMock } from "@/tests/security/harness";
import {
  FUZZ_TIMEOUT_MS,
  isClearMessage,
  nastyBody,
  nastyInput,
  nastyString,
  NUM_RUNS,
} from "@/tests/security/arbitraries";
import { checkResponse, fuzzFixture, writeGuard, type FuzzFixture } from "@/tests/security/fuzz-fixture";
import { entryKey, REGISTRY } from "@/tests/security/registry";

const WEBHOOK_SECRET = vi.hoisted(() => (process.env.STRIPE_WEBHOOK_SECRET = "whsec_fuzz_test_secret"));

vi.mock("next/headers", () => headersMock);

const chargeAttendees = (await import("@/app/api/charge-attendees/route")).POST;
const checkAndCharge = (await import("@/app/api/check-and-charge/route")).POST;
const createSetupIntent = (await import("@/app/api/create-setup-intent/route")).POST;
const confirmSetup = (await import("@/app/api/demo-payments/confirm-setup/route")).POST;
const health = (await import("@/app/api/health/route")).GET;
const attention = (await import("@/app/api/me/attention/route")).GET;
const ticket = (await import("@/app/api/me/tickets/[campaignId]/route")).GET;
const unsubscribeRoute = await import("@/app/api/unsubscribe/route");
const webhook = (await import("@/app/api/stripe/webhook/route")).POST;
const calendar = (await import("@/app/campaign/[campaignId]/calendar.ics/route")).GET;
const csv = (await import("@/app/campaign/[campaignId]/commitments.csv/route")).GET;
const payoutsCsv = (await import("@/app/payouts/payouts.csv/route")).GET;
const coverRoute = await import("@/app/api/campaigns/[campaignId]/cover/route");
const commitRoute = (await import("@/app/api/campaigns/[campaignId]/commit/route")).POST;
const coverImage = (await import("@/app/images/covers/[imageId]/[size]/route")).GET;
const { authOptions } = await import("@/lib/auth/options");
const { AuthHandler } = await import("@/tests/helpers/next-auth-core");

let f: FuzzFixture;
beforeAll(async () => {
  f = await fuzzFixture();
});
afterAll(closeFingerprintPool);

const post = (url: string, body: string, headers: Record<string, string> = {}) =>
  new Request(`http://localhost:3000${url}`, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body,
  });
const get = (url: string) => new Request(`http://localhost:3000${url}`);

type Target = {
  as: (f: FuzzFixture) => { id: string; email: string } | null;
  input: (f: FuzzFixture) => fc.Arbitrary<unknown>;
  call: (input: unknown) => Promise<Response>;
};

/** A path segment as Next hands it to the handler (decoded, any text). */
const segment = (f: FuzzFixture) => fc.oneof(nastyString, fc.constantFrom(...f.known));

const TARGETS: Record<string, Target> = {
  "app/api/charge-attendees/route.ts#POST": {
    as: (f) => f.creator,
    input: (f) => nastyBody(["campaignId"], f.known),
    call: (b) => chargeAttendees(post("/api/charge-attendees", b as string)),
  },
  "app/api/check-and-charge/route.ts#POST": {
    as: (f) => f.user,
    input: (f) =>
      nastyBody(["campaignId", "campaignGoal", "ticketPrice", "pledges", "currentStatus"], f.known),
    call: (b) => checkAndCharge(post("/api/check-and-charge", b as string)),
  },
  "app/api/create-setup-intent/route.ts#POST": {
    as: (f) => f.user,
    input: (f) => nastyBody(["email"], f.known),
    call: (b) => createSetupIntent(post("/api/create-setup-intent", b as string)),
  },
  "app/api/demo-payments/confirm-setup/route.ts#POST": {
    as: (f) => f.user,
    input: (f) =>
      nastyBody(
        ["clientSecret", "cardNumber", "expMonth", "expYear", "cvc"],
        [createDemoSetupSecret(f.user.id), "4242424242424242", "4000000000000002", "12", "34", "123"],
      ),
    call: (b) => confirmSetup(post("/api/demo-payments/confirm-setup", b as string)),
  },
  "app/api/health/route.ts#GET": { as: () => null, input: () => nastyString, call: () => health() },
  // takes no input: the signed-in viewer's own attention list, whatever is thrown at it
  "app/api/me/attention/route.ts#GET": {
    as: (f) => f.user,
    input: () => nastyString,
    call: () => attention(),
  },
  // the viewer's own ticket at whatever event id is thrown at it: { ticket: null } or theirs
  "app/api/me/tickets/[campaignId]/route.ts#GET": {
    as: (f) => f.user,
    input: segment,
    call: (id) => ticket(get("/api/me/tickets/x"), { params: Promise.resolve({ campaignId: id as string }) }),
  },
  "app/api/unsubscribe/route.ts#POST": {
    as: () => null,
    input: () => fc.tuple(nastyString, nastyString),
    call: (input) => {
      const [token, body] = input as [string, string];
      return unsubscribeRoute.POST(
        new Request(`http://localhost:3000/api/unsubscribe?token=${encodeURIComponent(token)}`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body,
        }),
      );
    },
  },
  "app/api/unsubscribe/route.ts#GET": {
    as: () => null,
    input: () => nastyString,
    call: (token) =>
      unsubscribeRoute.GET(get(`/api/unsubscribe?token=${encodeURIComponent(token as string)}`)),
  },
  "app/api/stripe/webhook/route.ts#POST": {
    as: () => null,
    // half unsigned or badly signed, half correctly signed hostile payloads (malformed events must not 500)
    input: (f) =>
      fc.tuple(
        nastyBody(
          ["id", "type", "data", "object", "created"],
          [...f.known, "payment_intent.succeeded", "payment_intent.payment_failed", "setup_intent.succeeded"],
        ),
        fc.constantFrom("none", "bad", "signed", "signed"),
      ),
    call: (input) => {
      const [body, how] = input as [string, string];
      const headers: Record<string, string> = {};
      if (how === "bad") headers["stripe-signature"] = "t=1,v1=deadbeef";
      if (how === "signed")
        headers["stripe-signature"] = Stripe.webhooks.generateTestHeaderString({
          payload: body,
          secret: WEBHOOK_SECRET,
        });
      return webhook(
        new Request("http://localhost:3000/api/stripe/webhook", { method: "POST", body, headers }),
      );
    },
  },
  "app/campaign/[campaignId]/calendar.ics/route.ts#GET": {
    as: (f) => f.user,
    input: segment,
    call: (id) =>
      calendar(get("/campaign/x/calendar.ics"), { params: Promise.resolve({ campaignId: id as string }) }),
  },
  "app/api/campaigns/[campaignId]/cover/route.ts#POST": {
    as: (f) => f.creator,
    // hostile uploads: random bytes named like images, non-multipart bodies, the wrong field name
    input: (f) =>
      fc.tuple(
        segment(f),
        fc.uint8Array({ maxLength: 2048 }),
        fc.constantFrom("x.jpg", "x.png", "../../etc/passwd", "x.webp", ""),
        fc.constantFrom("multipart", "json", "wrong-field"),
      ),
    call: (input) => {
      const [id, bytes, name, how] = input as [string, Uint8Array, string, string];
      const url = `http://localhost:3000/api/campaigns/x/cover`;
      const form = new FormData();
      form.set(how === "wrong-field" ? "image" : "file", new Blob([new Uint8Array(bytes)]), name || "blob");
      const req =
        how === "json"
          ? new Request(url, { method: "POST", headers: { "content-type": "application/json" }, body: "{}" })
          : new Request(url, { method: "POST", body: form });
      return coverRoute.POST(req, { params: Promise.resolve({ campaignId: id }) });
    },
  },
  // the commit dialog's commit: any event id in the path, any body (a commit to a known event is accepted)
  "app/api/campaigns/[campaignId]/commit/route.ts#POST": {
    as: (f) => f.user,
    input: (f) =>
      fc.tuple(
        segment(f),
        nastyBody(["paymentMethodId", "saveCard", "amount", "minPeople", "campaignId"], f.known),
      ),
    call: (input) => {
      const [id, body] = input as [string, string];
      return commitRoute(post("/api/campaigns/x/commit", body), {
        params: Promise.resolve({ campaignId: id }),
      });
    },
  },
  "app/api/campaigns/[campaignId]/cover/route.ts#DELETE": {
    as: (f) => f.user,
    input: segment,
    call: (id) =>
      coverRoute.DELETE(new Request("http://localhost:3000/api/campaigns/x/cover", { method: "DELETE" }), {
        params: Promise.resolve({ campaignId: id as string }),
      }),
  },
  "app/images/covers/[imageId]/[size]/route.ts#GET": {
    as: () => null,
    input: (f) => fc.tuple(segment(f), fc.oneof(nastyString, fc.constantFrom("small", "medium", "large"))),
    call: (input) => {
      const [imageId, size] = input as [string, string];
      return coverImage(get("/images/covers/x/y"), { params: Promise.resolve({ imageId, size }) });
    },
  },
  "app/payouts/payouts.csv/route.ts#GET": {
    as: (f) => f.creator,
    input: segment,
    call: (q) => payoutsCsv(get(`/payouts/payouts.csv?${encodeURIComponent(String(q))}`)),
  },
  "app/campaign/[campaignId]/commitments.csv/route.ts#GET": {
    as: (f) => f.creator,
    input: segment,
    call: (id) =>
      csv(get("/campaign/x/commitments.csv"), { params: Promise.resolve({ campaignId: id as string }) }),
  },
};

describe(`fuzz: every route handler gets ${NUM_RUNS} hostile requests`, () => {
  it("covers every route handler in the registry (NextAuth's below)", () => {
    const routes = REGISTRY.filter((e) => e.kind === "route" && !e.file.includes("[...nextauth]")).map(
      entryKey,
    );
    expect(routes.filter((k) => !TARGETS[k])).toEqual([]);
  });

  for (const [key, target] of Object.entries(TARGETS)) {
    it(
      `${key}: never 5xx; 4xx answers carry a clear message and write nothing`,
      async () => {
        actAs(target.as(f));
        const guard = writeGuard();
        await guard.start();
        await fc.assert(
          fc.asyncProperty(target.input(f), async (input) => {
            const verdict = await checkResponse(await target.call(input), key);
            if (verdict === "accepted") await guard.accepted();
            else await guard.rejected(key);
          }),
          { numRuns: NUM_RUNS },
        );
        await guard.finish(key);
      },
      FUZZ_TIMEOUT_MS,
    );
  }

  it(
    `NextAuth (GET and POST /api/auth/*): ${NUM_RUNS} hostile sign-ins and actions never fail on the server`,
    async () => {
      actAs(null);
      const options = authOptions();
      const csrf = await AuthHandler({
        req: { method: "GET", action: "csrf", headers: {}, cookies: {}, query: {} },
        options,
      });
      const cookie = csrf.cookies!.find((c) => c.name.includes("csrf-token"))!;
      const csrfToken = (csrf.body as { csrfToken: string }).csrfToken;
      const guard = writeGuard();
      await guard.start();
      await fc.assert(
        fc.asyncProperty(
          nastyInput(
            ["email", "password", "csrfToken", "callbackUrl", "json"],
            [f.user.email, "a-long-password-1", csrfToken, "true", "https://evil.example/"],
          ),
          fc.constantFrom(
            "callback",
            "signin",
            "signout",
            "session",
            "providers",
            "csrf",
            "error",
            "_log",
            "unknown",
          ),
          fc.boolean(),
          async (body, action, withCookie) => {
            const res = await AuthHandler({
              req: {
                method:
                  action === "session" || action === "providers" || action === "csrf" || action === "error"
                    ? "GET"
                    : "POST",
                action,
                providerId: "credentials",
                headers: {},
                cookies: withCookie ? { [cookie.name]: cookie.value } : {},
                query: {},
                body: body && typeof body === "object" && !Array.isArray(body) ? body : {},
              },
              options,
            });
            expect(res.status ?? 200, `NextAuth ${action} answered ${res.status}`).toBeLessThan(500);
            // no open redirect: NextAuth only redirects within the app
            if (res.redirect)
              expect(new URL(res.redirect, "http://localhost:3000").host).toBe("localhost:3000");
            const body2 = res.body as { error?: unknown } | undefined;
            if (res.status && res.status >= 400 && body2 && typeof body2 === "object" && "error" in body2)
              expect(isClearMessage(String(body2.error))).toBe(true);
            await guard.rejected(`NextAuth ${action}`); // no account is created or changed by a sign-in attempt
          },
        ),
        { numRuns: NUM_RUNS },
      );
      await guard.finish("NextAuth");
    },
    FUZZ_TIMEOUT_MS,
  );
});
