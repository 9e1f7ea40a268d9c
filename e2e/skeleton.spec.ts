import { createCampaign, expect, test } from "./fixtures";

test("home lists an approved event and links to its page; unknown ids go home", async ({ page }) => {
  const approved = await createCampaign({ title: "Skeleton approved picnic", goal: 12 });
  const pending = await createCampaign({ title: "Skeleton pending picnic", approvalStatus: "pending" });

  await page.goto("/");
  const card = page.getByRole("link", { name: /Skeleton approved picnic/ });
  await expect(card).toBeVisible();
  await expect(card).toContainText("Goal: 12 attendees");
  await expect(page.getByText("Skeleton pending picnic")).toHaveCount(0);

  await card.click();
  await expect(page).toHaveURL(new RegExp(`/campaign/${approved.id}$`));
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Skeleton approved picnic");

  // issue 31: not found, with SPEC's text and a way home, as a real 404 (nothing about the pending event)
  for (const path of [`/campaign/${pending.id}`, "/campaign/does-not-exist"]) {
    const res = await page.goto(path);
    expect(res?.status(), path).toBe(404);
    await expect(page.getByRole("heading", { name: "Campaign not found" })).toBeVisible();
    await expect(page.getByText("Skeleton pending picnic")).toHaveCount(0);
  }
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("an unknown path shows the 404 page with a way home", async ({ page }) => {
  const res = await page.goto("/no/such/page");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "404 Page Not Found" })).toBeVisible();
  await page.getByRole("link", { name: "Go Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("pages an outsider may not open answer with a real redirect, not a streamed skeleton", async ({
  request,
}) => {
  const { id } = await createCampaign({ title: "Skeleton redirect picnic" });
  for (const path of [`/campaign/${id}/edit`, `/campaign/${id}/manage`]) {
    const res = await request.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(307);
    expect(res.headers()["location"], path).toMatch(/^\/\?notice=/);
  }
});
