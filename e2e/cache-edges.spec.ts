import crypto from "node:crypto";
import { createCampaign, createUser, expect, loginAs, sql, test } from "./fixtures";

// Issue 13: the cached copies under /v/ are reached only through the proxy's rewrites. Before, the
// proxy's matcher skipped requests with a Next-Action header and paths ending in .png, .ics, … so
// such a request rendered the committed members' copy (organizer's email included) for anyone,
// without CSP, and stored any made-up version in the cache. And cached copies carried
// 'unsafe-inline' for scripts; now each copy has a nonce of its own.

const HEADERS: Record<string, string> = {
  "Next-Action": "0".repeat(42),
  RSC: "1",
  "Next-Router-State-Tree": encodeURIComponent(
    JSON.stringify(["", { children: ["__PAGE__", {}] }, null, null, true]),
  ),
  "Next-Router-Prefetch": "1",
  "x-middleware-subrequest": "proxy:proxy:proxy:proxy:proxy",
  "x-middleware-rewrite": "/v/campaign/x",
  "x-middleware-prefetch": "1",
};
const EXTENSIONS = ["", ".png", ".jpg", ".svg", ".ico", ".txt", ".xml", ".ics", ".csv"];

test("/v/… answers 404 from outside for every combination of framework headers and excluded extensions", async ({
  playwright,
  baseURL,
}) => {
  const organizer = await createUser({
    name: "Edge Organizer",
    email: `edge-org-${Date.now()}@example.test`,
  });
  const event = await createCampaign({ creator: organizer, attendeesAnonymous: false });
  // Even a correctly signed path (the e2e server's secret is known here) is refused from outside.
  const signed = (v: string) =>
    `${v}_${crypto.createHmac("sha256", `v-path\u0000e2e-secret-not-for-production`).update(`campaign/${event.id}/${v}`).digest().subarray(0, 16).toString("hex")}`;
  const versions = ["x~c", "0-0-o~c", "0-0-o~m", "0-0-o", signed("0-0-o~c")];
  const names = Object.keys(HEADERS);
  const ctx = await playwright.request.newContext({ baseURL });
  const failures: string[] = [];
  const jobs: (() => Promise<void>)[] = [];
  for (let mask = 0; mask < 1 << names.length; mask++) {
    const headers = Object.fromEntries(names.filter((_, i) => mask & (1 << i)).map((n) => [n, HEADERS[n]]));
    for (const v of versions) {
      for (const ext of EXTENSIONS) {
        // every header set with every path would be 5,760 requests: all header sets on the plain
        // versions, and the extensions with no header, each header alone and all of them
        const popcount = names.filter((_, i) => mask & (1 << i)).length;
        if (ext && !(popcount <= 1 || popcount === names.length)) continue;
        for (const method of headers["Next-Action"] ? ["GET", "POST"] : ["GET"]) {
          const url = `/v/campaign/${event.id}/${v}${ext}`;
          jobs.push(async () => {
            const res = await ctx.fetch(url, {
              method,
              headers,
              data: method === "POST" ? "[]" : undefined,
              maxRedirects: 0,
            });
            const body = await res.text();
            if (res.status() !== 404 || body.includes(organizer.email))
              failures.push(`${method} ${url} ${JSON.stringify(Object.keys(headers))} → ${res.status()}`);
          });
        }
      }
    }
  }
  for (const path of ["/v", "/v/", "/v/home/all/1/x", "/v/home/all/1/member.0-0.png"]) {
    jobs.push(async () => {
      // ("/v/" is first redirected to "/v", Next's trailing-slash rule)
      const res = await ctx.get(path, { headers: { "Next-Action": HEADERS["Next-Action"] } });
      if (res.status() !== 404) failures.push(`GET ${path} → ${res.status()}`);
    });
  }
  let i = 0;
  await Promise.all(
    Array.from({ length: 8 }, async () => {
      while (i < jobs.length) await jobs[i++]();
    }),
  );
  expect(failures, failures.slice(0, 10).join("\n")).toEqual([]);
  expect(jobs.length).toBeGreaterThan(1000);
  await ctx.dispose();
});

const scriptSrc = (csp: string | undefined) => /script-src ([^;]*)/.exec(csp ?? "")?.[1] ?? "";

test("cached copies carry a nonce of their own, the same on every hit and new with each version; no script is blocked", async ({
  page,
  browser,
}) => {
  const t = Date.now().toString(36);
  const event = await createCampaign({ title: `Nonce check ${t}`, attendeesAnonymous: false });
  const visitor = await browser.newContext();
  const first = await visitor.request.get(`/campaign/${event.id}`);
  const again = await visitor.request.get(`/campaign/${event.id}`);
  const csp = first.headers()["content-security-policy"];
  expect(scriptSrc(csp)).not.toContain("'unsafe-inline'");
  const nonce = /'nonce-([^']+)'/.exec(scriptSrc(csp))?.[1];
  expect(nonce).toBeTruthy();
  expect(again.headers()["content-security-policy"]).toBe(csp);
  for (const html of [await first.text(), await again.text()]) {
    const scripts = html.match(/<script\b[^>]*>/g) ?? [];
    expect(scripts.length).toBeGreaterThan(0);
    for (const tag of scripts) expect(tag, tag).toContain(`nonce="${nonce}"`);
  }
  // a change is a new version: a new nonce
  await sql().query(`UPDATE "Campaign" SET title = $2 WHERE id = $1`, [
    event.id,
    `Nonce check ${t} (renamed)`,
  ]);
  const changed = await visitor.request.get(`/campaign/${event.id}`);
  expect(await changed.text()).toContain("(renamed)");
  expect(/'nonce-([^']+)'/.exec(scriptSrc(changed.headers()["content-security-policy"]))?.[1]).not.toBe(
    nonce,
  );

  // In the browser, as a visitor (the visitors' copy) and as a member (the members' copy): the page
  // hydrates (the Share button works) and the console reports no CSP violation.
  const member = await createUser({ name: `Nonce member ${t}` });
  await loginAs(page, member);
  for (const p of [await visitor.newPage(), page]) {
    const violations: string[] = [];
    p.on("console", (m) => {
      if (/Content Security Policy|Content-Security-Policy/i.test(m.text())) violations.push(m.text());
    });
    const res = await p.goto(`/campaign/${event.id}`);
    expect(scriptSrc(res?.headers()["content-security-policy"])).toMatch(/'nonce-[^']+' 'strict-dynamic'/);
    await p.reload();
    await expect(p.getByRole("button", { name: "Commit", exact: true })).toBeEnabled();
    await p.getByRole("button", { name: "Commit", exact: true }).click();
    // hydrated: the visitor is asked to sign in, the member gets the confirmation dialog
    await expect(p.getByRole("alert").or(p.getByRole("dialog")).first()).toBeVisible();
    expect(violations).toEqual([]);
  }
  await visitor.close();
});

test("the static roadmap is served as a copy with a nonce of its own, not 'unsafe-inline', and no script is blocked", async ({
  page,
}) => {
  const violations: string[] = [];
  page.on("console", (m) => {
    if (/Content Security Policy|Content-Security-Policy/i.test(m.text())) violations.push(m.text());
  });
  const res = await page.goto("/roadmap");
  const script = scriptSrc(res?.headers()["content-security-policy"]);
  expect(script).not.toContain("'unsafe-inline'");
  expect(script).toMatch(/'nonce-[^']+' 'strict-dynamic'/);
  const again = await page.request.get("/roadmap");
  expect(again.headers()["content-security-policy"]).toBe(res?.headers()["content-security-policy"]);
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  // hydrated: a client-side navigation works from it
  await page.getByRole("banner").getByRole("link").first().click();
  await expect(page).toHaveURL(/\/$/);
  expect(violations).toEqual([]);
});

// Issue 35 item 2: an approved event's organizer is served a copy made for them alone, keyed by the
// event's version and theirs. It must be theirs only, move with every change, and work in the browser.
test("the organizer's page is a copy of their own: the same on a second view, new after a comment, never another person's", async ({
  page,
  browser,
}) => {
  const t = Date.now().toString(36);
  const organizer = await createUser({ name: `Copy organizer ${t}` });
  const backer = await createUser({ name: `Hidden backer ${t}`, email: `hidden-${t}@example.test` });
  const event = await createCampaign({
    creator: organizer,
    title: `Organizer copy ${t}`,
    attendeesAnonymous: true,
  });
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor) VALUES ($1, $2, $3, $4)`,
    [`pl${crypto.randomBytes(10).toString("hex")}`, event.id, backer.id, backer.name],
  );
  await loginAs(page, organizer);
  const nonceOf = (csp: string | undefined) => /'nonce-([^']+)'/.exec(scriptSrc(csp))?.[1];
  const first = await page.request.get(`/campaign/${event.id}`);
  const again = await page.request.get(`/campaign/${event.id}`);
  const firstHtml = await first.text();
  // the organizer's own view: their tools and the hidden backer's name
  expect(firstHtml).toContain("Manage Campaign");
  expect(firstHtml).toContain(backer.name!);
  // a copy: the same nonce on the second view (a page rendered per request gets a new one each time)
  expect(nonceOf(again.headers()["content-security-policy"])).toBe(
    nonceOf(first.headers()["content-security-policy"]),
  );

  // another signed-in person, served right after: none of it
  const other = await createUser({ name: `Other member ${t}` });
  const otherContext = await browser.newContext();
  const otherPage = await otherContext.newPage();
  await loginAs(otherPage, other);
  const theirs = await otherPage.request.get(`/campaign/${event.id}`);
  const theirsHtml = await theirs.text();
  expect(theirsHtml).not.toContain("Manage Campaign");
  expect(theirsHtml).not.toContain(backer.name!);
  expect(theirsHtml).not.toContain(backer.email);
  await otherContext.close();

  // a comment is a new version: the organizer sees it on the next view, under a new nonce
  await sql().query(`INSERT INTO "Comment" (id, "campaignId", "authorId", text) VALUES ($1, $2, $3, $4)`, [
    `cm${crypto.randomBytes(10).toString("hex")}`,
    event.id,
    backer.id,
    `Fresh comment ${t}`,
  ]);
  const changed = await page.request.get(`/campaign/${event.id}`);
  expect(await changed.text()).toContain(`Fresh comment ${t}`);
  expect(nonceOf(changed.headers()["content-security-policy"])).not.toBe(
    nonceOf(first.headers()["content-security-policy"]),
  );

  // in the browser: the copy hydrates and the organizer's tools work (an update posts and shows)
  await page.goto(`/campaign/${event.id}`);
  await page.getByPlaceholder("Venue details, a change of plan, a thank-you…").fill(`Update ${t}`);
  await page.getByRole("button", { name: "Post update" }).click();
  await expect(page.getByText(`Update ${t}`, { exact: true })).toBeVisible();
});
