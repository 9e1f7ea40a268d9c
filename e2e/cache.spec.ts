import { createCampaign, createUser, expect, loginAs, sql, test } from "./fixtures";

// Issue 8: visitors' pages (and the home every signed-in non-admin sees) are cached copies keyed
// by the data's version in Postgres (lib/cache/visitor-version.ts); a commit, a comment or an
// approval must show on the very next request, never after a timer.

test("a visitor's cached event page shows a new commit and a new comment on the next request", async ({ page, browser }) => {
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
  await page.getByRole("dialog", { name: "Confirm Your Commitment" }).getByRole("button", { name: "Yes, I'm In!" }).click();
  await expect(page.getByRole("dialog", { name: "You're Committed!" })).toBeVisible();

  await visitor.reload();
  await expect(visitor.getByRole("region", { name: "Commitments" }).getByText(`Cache Backer ${t}`)).toBeVisible();

  await page.goto(`/campaign/${event.id}`);
  await page.getByLabel("Add a comment").fill(`Fresh comment ${t}`);
  await page.getByRole("button", { name: "Post" }).click();
  // (the text box's own text would match getByText too: wait for the posted comment in the list)
  await expect(page.getByRole("listitem").filter({ hasText: `Fresh comment ${t}` })).toBeVisible();

  await visitor.reload();
  await expect(visitor.getByText(`Fresh comment ${t}`)).toBeVisible();
  await visitor.close();
});

test("signed-in non-admins share one cached home that still shows an approval at once; admins get their own", async ({ page, browser }) => {
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
  await sql().query(
    `INSERT INTO "Comment" (id, "campaignId", "authorId", text, "createdAt")
     SELECT 'cm' || $3 || g, $1, $2, 'Old comment ' || g, now() - (100 - g) * interval '1 minute' FROM generate_series(1, 45) g`,
    [event.id, author.id, t],
  );
  await page.goto(`/campaign/${event.id}`);
  await expect(page.getByText("Old comment 45", { exact: true })).toBeVisible();
  await expect(page.getByText("Old comment 25", { exact: true })).toHaveCount(0);
  await page.getByRole("button", { name: "Show more comments (25 more)" }).click();
  await expect(page.getByText("Old comment 25", { exact: true })).toBeVisible();
  await page.getByRole("button", { name: "Show more comments (5 more)" }).click();
  await expect(page.getByText("Old comment 1", { exact: true })).toBeVisible();
  await expect(page.getByRole("button", { name: /Show more comments/ })).toHaveCount(0);
  await expect(page.getByText(/^Old comment \d+$/)).toHaveCount(45);
});
