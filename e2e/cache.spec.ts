import { COMMENTS_SHOWN, EVENT_COMMITMENTS_LIMIT } from "../lib/campaigns/page-sizes";
import { createCampaign, createUser, expect, loginAs, sql, test } from "./fixtures";

// Issue 8: visitors' pages (and the home every signed-in non-admin sees) are cached copies keyed
// by the data's version in Postgres (lib/cache/visitor-version.ts); a commit, a comment or an
// approval must show on the very next request, never after a timer.

test("a visitor's cached event page shows a new commit and a new comment on the next request", async ({
  page,
  browser,
}) => {
  const t = Date.now().toString(36);
  const event = await createCampaign({ title: `Cache check ${t}`, goal: 10, attendeesAnonymous: false });
  const visitor = await (await browser.newContext()).newPage();
  await visitor.goto(`/campaign/${event.id}`);
  await expect(visitor.getByText("No commitments yet. Be the first to commit!")).toBeVisible();
  await expect(visitor.getByText("No comments yet. Be the first to say something!")).toBeVisible();
  await visitor.reload(); // served from the cache now
  await expect(visitor.getByText("No commitments yet. Be the first to commit!")).toBeVisible();

  const backer = await createUser({ name: `Cache Backer ${t}` });
  await loginAs(page, backer);
  await page.goto(`/campaign/${event.id}`);
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  await page
    .getByRole("dialog", { name: "Confirm Your Commitment" })
    .getByRole("button", { name: "Yes, I'm In!" })
    .click();
  await expect(page.getByRole("dialog", { name: "You're Committed!" })).toBeVisible();

  await visitor.reload();
  await expect(
    visitor.getByRole("region", { name: "Commitments" }).getByText(`Cache Backer ${t}`),
  ).toBeVisible();

  await page.goto(`/campaign/${event.id}`);
  await page.getByLabel("Add a comment").fill(`Fresh comment ${t}`);
  await page.getByRole("button", { name: "Post" }).click();
  // (the text box's own text would match getByText too: wait for the posted comment in the list)
  await expect(page.getByRole("listitem").filter({ hasText: `Fresh comment ${t}` })).toBeVisible();

  await visitor.reload();
  await expect(visitor.getByText(`Fresh comment ${t}`)).toBeVisible();
  await visitor.close();
});

test("signed-in non-admins share one cached home that still shows an approval at once; admins get their own", async ({
  page,
  browser,
}) => {
  const t = Date.now().toString(36);
  const member = await createUser({ name: `Member ${t}` });
  await loginAs(page, member);
  await page.goto("/");
  // the signed-in hero: no Sign In button
  await expect(page.getByRole("heading", { name: "PactNexus — a nexus for pacts" })).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Sign In" })).toHaveCount(0);
  await page.reload();

  const event = await createCampaign({ title: `Approved later ${t}`, approvalStatus: "pending" });
  await page.reload();
  await expect(page.getByRole("link", { name: event.title })).toHaveCount(0);
  await sql().query(`UPDATE "Campaign" SET "approvalStatus" = 'approved' WHERE id = $1`, [event.id]);
  await page.reload();
  await expect(page.getByRole("link", { name: event.title })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Approve|^Reject/ })).toHaveCount(0);

  const admin = await createUser({ isAdmin: true });
  const adminPage = await (await browser.newContext()).newPage();
  await loginAs(adminPage, admin);
  await adminPage.goto("/");
  const card = adminPage.getByRole("article").filter({ hasText: event.title });
  await expect(card.getByRole("button", { name: /^Reject/ })).toBeVisible();
  await adminPage.close();
});

test("the long lists show the newest entries first and load older ones on demand", async ({ page }) => {
  const t = Date.now().toString(36);
  const event = await createCampaign({ title: `Long lists ${t}`, goal: 100 });
  const author = await createUser({ name: `Author ${t}` });
  const n = COMMENTS_SHOWN * 2 + 5;
  await sql().query(
    `INSERT INTO "Comment" (id, "campaignId", "authorId", text, "createdAt")
     SELECT 'cm' || $3 || g, $1, $2, 'Old comment ' || g, now() - ($4 - g) * interval '1 minute' FROM generate_series(1, $4) g`,
    [event.id, author.id, t, n],
  );
  await page.goto(`/campaign/${event.id}`);
  await expect(page.getByText(`Old comment ${n}`, { exact: true })).toBeVisible();
  await expect(page.getByText(/^Old comment \d+$/)).toHaveCount(COMMENTS_SHOWN);
  await expect(page.getByText(`Old comment ${n - COMMENTS_SHOWN}`, { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: `Show more comments (${n - COMMENTS_SHOWN} more)` }).click();
  await expect(page.getByText(`Old comment ${n - COMMENTS_SHOWN}`, { exact: true })).toBeVisible();
  await page.getByRole("button", { name: `Show more comments (${n - 2 * COMMENTS_SHOWN} more)` }).click();
  await expect(page.getByText("Old comment 1", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Show more comments/ })).toHaveCount(0);
  await expect(page.getByText(/^Old comment \d+$/)).toHaveCount(n);

  // commitments too: the newest first, the rest on demand, numbered as one list
  const m = EVENT_COMMITMENTS_LIMIT + 3;
  for (let i = 1; i <= m; i++) {
    const u = await createUser({ name: `Backer ${i} ${t}` });
    await sql().query(
      `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "createdAt") VALUES ($1, $2, $3, 'x', now() - $4::int * interval '1 minute')`,
      [`pm${i}${t}`, event.id, u.id, m - i],
    );
  }
  await page.reload();
  const list = page.getByRole("region", { name: "Commitments" });
  await expect(list.getByRole("button", { name: /^Commitment details: / })).toHaveCount(
    EVENT_COMMITMENTS_LIMIT,
  );
  await list.getByRole("button", { name: "Show more (3 more)" }).click();
  await expect(list.getByRole("button", { name: /^Commitment details: / })).toHaveCount(m);
  await expect(list.getByText("Anonymous Attendee #1", { exact: true })).toBeVisible();
  await expect(list.getByRole("button", { name: /^Show more/ })).toHaveCount(0);
});

test("members whose own entries are not on the page share cached copies made for them; /v/ is not reachable from outside", async ({
  page,
  browser,
}) => {
  const t = Date.now().toString(36);
  const organizer = await createUser({ name: `Organizer ${t}`, email: `organizer-${t}@example.test` });
  const event = await createCampaign({ title: `Member copy ${t}`, goal: 100, creator: organizer });
  const early = await createUser({ name: `Early Backer ${t}` });
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "createdAt") VALUES ($1, $2, $3, 'x', now() - interval '2 days')`,
    [`pe${t}`, event.id, early.id],
  );
  for (let i = 0; i <= EVENT_COMMITMENTS_LIMIT; i++) {
    const u = await createUser({ name: `Later Backer ${i} ${t}` });
    await sql().query(
      `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "createdAt") VALUES ($1, $2, $3, 'x', now() - $4 * interval '1 minute')`,
      [`pl${i}${t}`, event.id, u.id, 30 - i],
    );
  }

  // committed, not listed: the committed members' copy — "You're Committed" and the organizer's email
  await loginAs(page, early);
  const res = await page.goto(`/campaign/${event.id}`);
  expect(res?.headers()["cache-control"]).toContain("private");
  await expect(page.getByRole("button", { name: "You're in" })).toBeDisabled();
  await expect(page.getByText(organizer.email)).toBeVisible();
  await expect(page.getByText(`Early Backer ${t}`)).toHaveCount(0); // their pledge is not on the first page
  const html = await (await page.request.get(`/campaign/${event.id}`)).text();
  expect(html).not.toContain(early.id);

  // not committed: the other copy — no organizer email, the Commit button
  const stranger = await createUser({ name: `Stranger ${t}` });
  const other = await (await browser.newContext()).newPage();
  await loginAs(other, stranger);
  await other.goto(`/campaign/${event.id}`);
  await expect(other.getByRole("button", { name: "Commit", exact: true })).toBeEnabled();
  await expect(other.getByText(organizer.email)).toHaveCount(0);
  await expect(other.getByText("Event organizer").first()).toBeVisible();
  // the account bar still knows who is signed in
  // (issue 17: it lives in a strip of its own above the header)
  await expect(other.getByRole("navigation", { name: "Account" }).getByText(stranger.email)).toBeVisible();

  // nobody can ask for a copy directly
  const version = html.match(/\/v\/campaign\/[^"'\s]*/)?.[0];
  expect(version, "the page does not reveal its cache path").toBeUndefined();
  for (const suffix of ["~c", "~m", ""]) {
    const direct = await other.request.get(`/v/campaign/${event.id}/0-0-o${suffix}`);
    expect(direct.status()).toBe(404);
  }
  await other.close();
});
