import { createCampaign, createUser, expect, loginAs, sql, test } from "./fixtures";

test("an admin approves a pending event from its home card and visitors then see it", async ({
  page,
  browser,
}) => {
  const admin = await createUser({ isAdmin: true });
  const event = await createCampaign({ title: `Card moderation ${Date.now()}`, approvalStatus: "pending" });
  await loginAs(page, admin);
  await page.goto("/");
  const card = page.getByRole("article").filter({ hasText: event.title });
  await expect(card.getByText("PENDING", { exact: true })).toBeVisible();
  await card.getByRole("button", { name: /^Approve/ }).click();
  await expect(card.getByText("PENDING", { exact: true })).toHaveCount(0);
  await expect(card.getByRole("button", { name: /^Reject/ })).toBeVisible();

  const { rows } = await sql().query(
    `SELECT "approvalStatus", "approvalUpdatedById" FROM "Campaign" WHERE id = $1`,
    [event.id],
  );
  expect(rows[0]).toEqual({ approvalStatus: "approved", approvalUpdatedById: admin.id });
  const log = await sql().query(`SELECT "actorId", "toStatus" FROM "ModerationLog" WHERE "campaignId" = $1`, [
    event.id,
  ]);
  expect(log.rows).toEqual([{ actorId: admin.id, toStatus: "approved" }]);

  const visitor = await browser.newPage();
  await visitor.goto("/");
  await expect(visitor.getByRole("link", { name: event.title })).toBeVisible();
  await expect(visitor.getByRole("button", { name: /Approve|Reject/ })).toHaveCount(0);
  await visitor.close();
});

test("the admin dashboard rejects, re-approves and deletes test events", async ({ page }) => {
  const admin = await createUser({ isAdmin: true });
  const event = await createCampaign({
    title: `Dashboard moderation ${Date.now()}`,
    approvalStatus: "pending",
  });
  const testEvent = await createCampaign({ title: `Disposable test ${Date.now()}`, isTest: true });
  const backer = await createUser();
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor) VALUES ($1, $2, $3, 'x')`,
    [`p${Date.now()}`, testEvent.id, backer.id],
  );
  await loginAs(page, admin);
  await page.goto("/admin");
  for (const label of ["Pending", "Approved", "Rejected", "Test Events"])
    await expect(page.getByText(label, { exact: true }).first()).toBeVisible();

  const pending = page.getByRole("region", { name: /Pending Approval/ });
  await pending
    .getByRole("listitem")
    .filter({ hasText: event.title })
    .getByRole("button", { name: /^Reject/ })
    .click();
  const rejected = page.getByRole("region", { name: /^Rejected/ });
  const row = rejected.getByRole("listitem").filter({ hasText: event.title });
  await expect(row).toBeVisible();
  await row.getByRole("button", { name: /^Re-approve/ }).click();
  await expect(
    page
      .getByRole("region", { name: /^Approved/ })
      .getByRole("listitem")
      .filter({ hasText: event.title }),
  ).toBeVisible();
  await expect(row).toHaveCount(0);

  await page.getByRole("button", { name: "Delete All" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("This cannot be undone.");
  await dialog.getByRole("button", { name: "Yes, delete them" }).click();
  await expect(page.getByText(/Successfully deleted \d+ test event\(s\)\./)).toBeVisible();
  const { rows } = await sql().query(`SELECT count(*)::int AS n FROM "Campaign" WHERE "isTest"`);
  expect(rows[0].n).toBe(0);
  const pledges = await sql().query(`SELECT count(*)::int AS n FROM "Pledge" WHERE "campaignId" = $1`, [
    testEvent.id,
  ]);
  expect(pledges.rows[0].n).toBe(0);

  await page.getByRole("button", { name: "Delete All" }).click();
  await expect(page.getByText("No test events found to delete.")).toBeVisible();
});

test("non-admins are sent home from /admin and see no moderation controls", async ({ page }) => {
  const user = await createUser();
  const event = await createCampaign({ title: `Visible approved ${Date.now()}` });
  await loginAs(page, user);
  await page.goto("/admin");
  await expect(page).toHaveURL(/\/$/);
  await page.goto(`/campaign/${event.id}`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText(event.title);
  await expect(page.getByRole("button", { name: /Approve|Reject/ })).toHaveCount(0);
});
