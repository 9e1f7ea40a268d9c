import crypto from "node:crypto";
import { createCampaign, createUser, expect, loginAs, test } from "./fixtures";

const tag = () => crypto.randomBytes(4).toString("hex");

test("a signed-in user posts a comment: Post disabled while blank, live counter, trimmed, newest first, rendered as text", async ({
  page,
}) => {
  const t = tag();
  const user = await createUser({ name: `Cora Commenter ${t}` });
  const campaign = await createCampaign({ attendeesAnonymous: false, title: `Comment picnic ${t}` });
  await loginAs(page, user);
  await page.goto(`/campaign/${campaign.id}`);

  const box = page.getByLabel("Add a comment");
  const post = page.getByRole("button", { name: "Post" });
  await expect(post).toBeDisabled();
  await box.fill("    ");
  await expect(post).toBeDisabled();
  await box.fill("  First!  ");
  await expect(page.getByText("10/500")).toBeVisible();
  await expect(post).toBeEnabled();
  await post.click();
  await expect(box).toHaveValue("");
  const first = page.getByRole("listitem").filter({ hasText: "First!" });
  await expect(first).toContainText(`Cora Commenter ${t}`);
  await expect(first).toContainText("You");

  const html = `<img src=x onerror="window.__pwned=1">`;
  await box.fill(html);
  await post.click();
  await expect(page.getByText(html)).toBeVisible();
  expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  // Newest first.
  await expect(page.getByRole("listitem").first()).toContainText(html);

  // The limit is 500 characters: the box stops there.
  await box.fill("x".repeat(600));
  await expect(box).toHaveValue("x".repeat(500));
  await expect(page.getByText("500/500")).toBeVisible();
});

test("visitors see a sign-in prompt instead of the form", async ({ page }) => {
  const campaign = await createCampaign();
  await page.goto(`/campaign/${campaign.id}`);
  await expect(page.getByRole("heading", { name: /Comments/ })).toBeVisible();
  await expect(page.getByLabel("Add a comment")).toHaveCount(0);
  // the comments' own link (the account strip at the top has a "Sign in" of its own)
  await page.getByRole("main").getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/profile$/);
});

test("the organizer deletes a comment; other users get no delete button", async ({
  page: first,
  browser,
}) => {
  let page = first;
  const t = tag();
  const creator = await createUser({ name: "Organizer" });
  const author = await createUser({ name: `Ari ${t}` });
  const campaign = await createCampaign({ creator });

  await loginAs(page, author);
  await page.goto(`/campaign/${campaign.id}`);
  await page.getByLabel("Add a comment").fill(`Please delete me ${t}`);
  await page.getByRole("button", { name: "Post" }).click();
  await expect(page.getByText(`Please delete me ${t}`)).toBeVisible();
  await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);

  // A fresh context: swapping cookies in one races the account bar's session refresh.
  page = await (await browser.newContext()).newPage();
  await loginAs(page, creator);
  await page.goto(`/campaign/${campaign.id}`);
  page.once("dialog", (d) => d.accept());
  await page
    .getByRole("listitem")
    .filter({ hasText: `Please delete me ${t}` })
    .getByRole("button", { name: "Delete" })
    .click();
  await expect(page.getByText(`Please delete me ${t}`)).toHaveCount(0);
  await page.reload();
  await expect(page.getByText(`Please delete me ${t}`)).toHaveCount(0);
  await expect(page.getByText("No comments yet.")).toBeVisible();
});

test("on a pending event the creator sees why the form is missing; an admin can comment", async ({
  page: first,
  browser,
}) => {
  let page = first;
  const creator = await createUser({ name: "Organizer" });
  const campaign = await createCampaign({ creator, approvalStatus: "pending" });
  await loginAs(page, creator);
  await page.goto(`/campaign/${campaign.id}`);
  await expect(page.getByText("Comments open once the event is approved.")).toBeVisible();
  await expect(page.getByLabel("Add a comment")).toHaveCount(0);

  page = await (await browser.newContext()).newPage();
  await loginAs(page, await createUser({ isAdmin: true, name: "Admin" }));
  await page.goto(`/campaign/${campaign.id}`);
  await page.getByLabel("Add a comment").fill("Admin note before approval");
  await page.getByRole("button", { name: "Post" }).click();
  await expect(page.getByText("Admin note before approval")).toBeVisible();
});
