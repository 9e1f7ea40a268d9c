import { createCampaign, createUser, expect, loginAs, sql, test } from "./fixtures";

test("the home filter control is visible and reflected in the URL", async ({ page }) => {
  const soon = await createCampaign({
    title: `Ending soon ${Date.now()}`,
    deadline: new Date(Date.now() + 2 * 86400_000),
  });
  const later = await createCampaign({
    title: `Far away ${Date.now()}`,
    deadline: new Date(Date.now() + 60 * 86400_000),
  });
  await page.goto("/");
  const filters = page.getByRole("navigation", { name: "Filter events" });
  await expect(filters.getByRole("link", { name: "All" })).toHaveAttribute("aria-current", "page");
  await filters.getByRole("link", { name: "Ending soon" }).click();
  await expect(page).toHaveURL(/\?filter=ending$/);
  await expect(page.getByRole("link", { name: soon.title })).toBeVisible();
  await expect(page.getByRole("link", { name: later.title })).toHaveCount(0);
  await expect(filters.getByRole("link", { name: "Ending soon" })).toHaveAttribute("aria-current", "page");
});

test("the event page shows details, countdown, price box and hides the organizer's email from strangers", async ({
  page,
}) => {
  const organizer = await createUser({ name: "Org" });
  const event = await createCampaign({
    title: `Detail page ${Date.now()}`,
    ticketPriceCents: 1500,
    goal: 4,
    creator: organizer,
  });
  await sql().query(
    `UPDATE "Campaign" SET "logisticalDetails" = 'Meet at the north gate.', "committedCount" = 6 WHERE id = $1`,
    [event.id],
  );
  await page.goto(`/campaign/${event.id}`);
  await expect(page).toHaveTitle(new RegExp(event.title));
  await expect(page.getByRole("link", { name: /Back to events/ })).toBeVisible();
  await expect(page.getByText("Meet at the north gate.")).toBeVisible();
  await expect(page.getByRole("progressbar", { name: "Progress toward the goal" })).toHaveAttribute(
    "aria-valuenow",
    "100",
  );
  await expect(page.getByRole("timer")).toContainText("Days");
  await expect(page.getByText(/You're charged \$15\.00 only if the goal of/)).toBeVisible();
  const aside = page.getByRole("complementary", { name: "Tickets and organizer" });
  await expect(aside.getByText("Event organizer")).toBeVisible();
  await expect(page.getByText(organizer.email)).toHaveCount(0);

  await loginAs(page, organizer);
  await page.reload();
  await expect(aside.getByText(organizer.email)).toBeVisible();
  await expect(aside.getByText("Event organizer")).toHaveCount(0);
  await expect(aside.getByRole("link", { name: "Manage Campaign" })).toBeVisible();
});

test("a past deadline shows Campaign ended; a free event says FREE", async ({ page }) => {
  const event = await createCampaign({
    title: `Ended ${Date.now()}`,
    deadline: new Date(Date.now() - 3600_000),
  });
  await page.goto(`/campaign/${event.id}`);
  await expect(page.getByRole("timer")).toHaveText("Campaign ended");
  await expect(page.getByText("FREE", { exact: true })).toBeVisible();
});

// Issue 31 item 6: no money moves for a refund bonus, so the page says whose promise it is.
test("a refund bonus is shown as the organizer's own promise, which PactNexus neither holds nor pays", async ({
  page,
}) => {
  const event = await createCampaign({ title: `Bonus ${Date.now()}`, ticketPriceCents: 1500 });
  await sql().query(`UPDATE "Campaign" SET "refundBonusPercentage" = 15 WHERE id = $1`, [event.id]);
  await page.goto(`/campaign/${event.id}`);
  await expect(
    page.getByText(
      "The organizer promises backers 15% back if the goal is not met. This is the organizer's own promise: PactNexus neither holds nor pays it.",
    ),
  ).toBeVisible();
  await expect(page.getByText(/Backers receive/)).toHaveCount(0);
});
