import type { Page } from "@playwright/test";
import { createUser, expect, loginAs, sql, test } from "./fixtures";

/** A datetime-local value `days` from now in the browser's own time zone. */
async function localInDays(page: Page, days: number) {
  return page.evaluate((d) => {
    const t = new Date(Date.now() + d * 86400_000);
    const p = (n: number) => String(n).padStart(2, "0");
    return `${t.getFullYear()}-${p(t.getMonth() + 1)}-${p(t.getDate())}T${p(t.getHours())}:${p(t.getMinutes())}`;
  }, days);
}

test("signed-out visitors are sent home", async ({ page }) => {
  await page.goto("/create-campaign");
  await expect(page).toHaveURL(/\/$/);
});

test("step 1 shows the SPEC messages on Next and clears a message when its field is edited", async ({
  page,
}) => {
  const user = await createUser();
  await loginAs(page, user);
  await page.goto("/create-campaign");
  await expect(page.getByText("Step 1: Event Details")).toBeVisible();

  await page.getByRole("button", { name: "Next", exact: true }).click();
  for (const msg of [
    "Campaign title is required",
    "Campaign description is required",
    "Goal amount is required",
    "Deadline is required",
  ]) {
    await expect(page.getByText(msg)).toBeVisible();
  }

  await page.getByLabel("Title").fill("abc");
  await expect(page.getByText("Campaign title is required")).toHaveCount(0);
  await page.getByLabel("Description").fill("too short");
  await page.getByLabel(/Goal/).fill("10001");
  await page.getByLabel(/Ticket Price/).fill("-1");
  await page.getByLabel("Deadline").fill(await localInDays(page, 400));
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await expect(page.getByText("Title must be at least 5 characters")).toBeVisible();
  await expect(page.getByText("Description must be at least 20 characters")).toBeVisible();
  await expect(page.getByText("Goal cannot exceed 10,000 people")).toBeVisible();
  await expect(page.getByText("Ticket price cannot be negative")).toBeVisible();
  await expect(page.getByText("Deadline cannot be more than 1 year from now")).toBeVisible();

  await page.getByLabel("Deadline").fill(await localInDays(page, 0.5));
  await page.getByLabel(/Ticket Price/).fill("10000.01");
  await page.getByRole("button", { name: "Next", exact: true }).click();
  await expect(page.getByText("Deadline must be at least 24 hours from now")).toBeVisible();
  await expect(page.getByText("Ticket price cannot exceed $10,000")).toBeVisible();
  await expect(page.getByText("Step 1: Event Details")).toBeVisible();
});

test("drafts: empty refusal, save, load into the form, delete with confirmation", async ({ page }) => {
  const user = await createUser();
  await loginAs(page, user);
  await page.goto("/create-campaign");

  await page.getByRole("button", { name: "Save Draft" }).click();
  await expect(page.getByText("Please fill in some content before saving as draft.")).toBeVisible();

  await page.getByLabel("Title").fill("Draft picnic by the river");
  await page
    .getByLabel("Description")
    .fill("A long description of the picnic that goes on and on about sandwiches and the river bank.");
  await page.getByLabel(/Goal/).fill("15");
  await page.getByRole("button", { name: "Save Draft" }).click();
  await expect(page.getByText("Draft saved successfully!")).toBeVisible();

  await page.reload();
  const panel = page.getByRole("complementary", { name: /Your Drafts/ });
  await expect(panel.getByText("Draft picnic by the river")).toBeVisible();
  // 80-character snippet
  await expect(
    panel.getByText("A long description of the picnic that goes on and on about sandwiches and the ri..."),
  ).toBeVisible();
  await expect(panel.getByText(/Goal: 15/)).toBeVisible();
  await expect(page.getByLabel("Title")).toHaveValue("");

  await panel.getByRole("button", { name: "Load Draft" }).click();
  await expect(page.getByLabel("Title")).toHaveValue("Draft picnic by the river");
  await expect(page.getByLabel(/Goal/)).toHaveValue("15");

  let confirmText = "";
  page.once("dialog", (d) => {
    confirmText = d.message();
    void d.accept();
  });
  await panel.getByRole("button", { name: /Delete draft/ }).click();
  await expect(panel.getByText("Draft picnic by the river")).toHaveCount(0);
  expect(confirmText).toBe("Are you sure you want to delete this draft?");
  const { rows } = await sql().query(
    `SELECT count(*)::int AS n FROM "CampaignDraft" WHERE "creatorId" = $1`,
    [user.id],
  );
  expect(rows[0].n).toBe(0);
});

test("creating an event lands on its page with the pending notice; it is stored pending, in cents", async ({
  page,
}) => {
  const user = await createUser();
  await loginAs(page, user);
  await page.goto("/create-campaign");
  await page.getByLabel("Title").fill("  Rooftop cinema night  ");
  await page.getByLabel("Description").fill("Films under the stars if forty people commit before Friday.");
  await page.getByLabel(/Goal/).fill("40");
  await page.getByLabel(/Ticket Price/).fill("12.50");
  await page.getByLabel("Deadline").fill(await localInDays(page, 5));
  await page.getByLabel(/Logistical Details/).fill("Bring a blanket.");
  await page.getByRole("button", { name: "Next", exact: true }).click();

  await expect(page.getByText("Step 2: Additional Settings")).toBeVisible();
  await expect(page.getByLabel("Anonymous attendees")).toBeChecked();
  await page.getByLabel("Reveal identities").selectOption("onStart");
  await page.getByLabel("Test event").check();
  await page.getByRole("button", { name: "Create Event" }).click();
  // issue 16: a review dialog before publishing; its own "Create Event" publishes
  const review = page.getByRole("dialog", { name: "Review your event" });
  await expect(review).toContainText("$12.50 per person");
  await review.getByRole("button", { name: "Create Event" }).click();

  await expect(page).toHaveURL(/\/campaign\/[a-z0-9]+$/);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Rooftop cinema night");
  await expect(page.getByText("Pending approval")).toBeVisible();
  await expect(page.getByText("Bring a blanket.")).toBeVisible();
  await expect(page.getByText("$12.50").first()).toBeVisible();

  const id = page.url().split("/").pop();
  const { rows } = await sql().query(
    `SELECT title, "ticketPriceCents", "approvalStatus", "identityRevelationType", "attendeesAnonymous", "isTest", "creatorId" FROM "Campaign" WHERE id = $1`,
    [id],
  );
  expect(rows[0]).toMatchObject({
    title: "Rooftop cinema night",
    ticketPriceCents: 1250,
    approvalStatus: "pending",
    identityRevelationType: "onStart",
    attendeesAnonymous: true,
    isTest: true,
    creatorId: user.id,
  });
});
