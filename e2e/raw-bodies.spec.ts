import crypto from "node:crypto";
import { encode } from "next-auth/jwt";
import { REGISTRY } from "../tests/security/registry";
import { actionPageUrl, createCampaign, createUser, expect, serverActions, test } from "./fixtures";

/**
 * Issue 14: no request a client can send may produce a 500. Raw bodies (not parsed inputs) go to
 * every route handler and every server action of the production build, through the front server
 * that `npm start` runs: non-JSON, wrong shapes, NUL bytes, huge bodies, a wrong Origin, and the
 * methods nobody should use. Every answer must be below 500.
 */
const SECRET = process.env.E2E_NEXTAUTH_SECRET || "e2e-secret-not-for-production";

const BODIES: { name: string; body: string | Buffer; type?: string }[] = [
  { name: "not JSON", body: "{not json" },
  { name: "empty", body: "" },
  { name: "a string", body: '"x"' },
  { name: "null", body: "null" },
  { name: "an object", body: '{"campaignId":{"$ne":1},"offset":-1}' },
  { name: "an array of junk", body: '[1,"two",{"three":[null]}]' },
  { name: "NUL bytes", body: '[{"campaignId":"a\\u0000b","text":"\\u0000"}]' },
  { name: "a lone surrogate", body: '[{"text":"\\ud800"}]' },
  { name: "deep nesting", body: "[".repeat(5000) + "]".repeat(5000) },
  { name: "binary", body: crypto.randomBytes(2048) },
  { name: "form data without boundary", body: "a=1", type: "multipart/form-data" },
  { name: "url-encoded", body: "campaignId=x&text=%00", type: "application/x-www-form-urlencoded" },
  { name: "huge", body: "x".repeat(1024 * 1024 + 10) },
];

test("every route handler and server action answers raw hostile bodies below 500", async ({
  playwright,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const organizer = await createUser({ name: "Raw Organizer" });
  const { id: campaignId } = await createCampaign({ creator: organizer });
  const cookie = `next-auth.session-token=${await encode({ token: { sub: organizer.id, email: organizer.email, name: organizer.name }, secret: SECRET })}`;
  const actions = serverActions();
  const failures: string[] = [];
  let count = 0;
  for (const signedIn of [false, true]) {
    const ctx = await playwright.request.newContext({
      baseURL,
      extraHTTPHeaders: signedIn ? { cookie } : {},
    });
    const jobs: (() => Promise<void>)[] = [];
    const check = (what: string, run: () => Promise<{ status: () => number }>) =>
      jobs.push(async () => {
        count++;
        const res = await run();
        if (res.status() >= 500) failures.push(`${what} → ${res.status()}`);
      });
    for (const entry of REGISTRY) {
      if (entry.kind === "route") {
        const url =
          "/" +
          entry.file
            .replace(/^app\//, "")
            .replace(/\/route\.ts$/, "")
            .replace("[campaignId]", campaignId)
            .replace("[...nextauth]", "callback/credentials");
        for (const b of BODIES) {
          for (const origin of [baseURL!, "https://evil.example"]) {
            check(
              `${entry.name === "GET" ? "POST (to a GET route)" : entry.name} ${url} ${b.name} from ${origin}`,
              () =>
                ctx.fetch(url, {
                  method: "POST",
                  data: b.body,
                  headers: { "content-type": b.type ?? "application/json", origin },
                  maxRedirects: 0,
                }),
            );
          }
        }
      } else {
        const found = actions.get(`${entry.file}#${entry.name}`);
        expect(found, `${entry.file}#${entry.name} missing from the build's manifest`).toBeTruthy();
        const url = actionPageUrl(found!.page, { campaignId, pledgeId: "plnosuchpledge000" });
        for (const b of BODIES) {
          for (const origin of [baseURL!, "https://evil.example"]) {
            check(`action ${entry.name} at ${url}: ${b.name} from ${origin}`, () =>
              ctx.fetch(url, {
                method: "POST",
                data: b.body,
                headers: {
                  "Next-Action": found!.id,
                  "content-type": b.type ?? "text/plain;charset=UTF-8",
                  origin,
                },
                maxRedirects: 0,
              }),
            );
          }
        }
        check(`action ${entry.name} with a made-up id`, () =>
          ctx.fetch(url, {
            method: "POST",
            data: "[]",
            headers: { "Next-Action": "f".repeat(42), origin: baseURL! },
            maxRedirects: 0,
          }),
        );
      }
    }
    for (const method of ["TRACE", "PUT", "DELETE", "PATCH", "OPTIONS"]) {
      for (const url of ["/", "/api/health", `/campaign/${campaignId}`, "/api/check-and-charge"])
        check(`${method} ${url}`, () => ctx.fetch(url, { method, maxRedirects: 0 }));
    }
    let next = 0;
    await Promise.all(
      Array.from({ length: 4 }, async () => {
        while (next < jobs.length) await jobs[next++]();
      }),
    );
    await ctx.dispose();
  }
  expect(failures, failures.slice(0, 20).join("\n")).toEqual([]);
  expect(count).toBeGreaterThan(1000);
});

test("the front server's answers a client sees: TRACE 405, an oversized body 413, a cross-origin action 403", async ({
  request,
  baseURL,
}) => {
  const trace = await request.fetch("/", { method: "TRACE" });
  expect(trace.status()).toBe(405);
  const big = await request.post("/api/check-and-charge", {
    data: "x".repeat(70 * 1024),
    headers: { "content-type": "application/json" },
  });
  expect(big.status()).toBe(413);
  expect((await big.json()).error.message).toBe(
    "The request body is too large: an API request may send at most 64 kB.",
  );
  const cross = await request.post("/", {
    data: "[]",
    headers: { "Next-Action": "f".repeat(42), origin: "https://evil.example", "content-type": "text/plain" },
  });
  expect([cross.status(), (await cross.json()).error.message]).toEqual([
    403,
    "Cross-origin requests are not allowed.",
  ]);
  const notArray = await request.post("/", {
    data: '{"a":1}',
    headers: { "Next-Action": "f".repeat(42), origin: baseURL!, "content-type": "text/plain" },
  });
  expect([notArray.status(), (await notArray.json()).error.message]).toEqual([
    400,
    "A server action's arguments must be sent as a JSON array.",
  ]);
});
