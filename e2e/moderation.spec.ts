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
  // issue 31: a paid test event whose backer was charged is kept, named, and pointed to cancellation
  const charged = await createCampaign({
    title: `Charged test ${Date.now()}`,
    isTest: true,
    ticketPriceCents: 2500,
  });
  const chargedPledge = `pc${Date.now()}`;
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "paymentIntentId",
       "chargeStatus", charged, "chargedAt")
     VALUES ($1, $2, $3, 'x', 2500, 'pm_demo_e2e', $4, 'succeeded', true, now())`,
    [chargedPledge, charged.id, backer.id, `pi_demo_${chargedPledge}`],
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
  // Reject asks to confirm, with a reason for the organizer
  const reject = page.getByRole("dialog", { name: `Reject "${event.title}"?` });
  await reject.getByRole("button", { name: "Reject event" }).click();
  await expect(reject.getByRole("alert")).toHaveText("Please give a reason for rejecting this event.");
  await reject.getByLabel("Reason (sent to the organizer)").fill("Duplicate of an existing event.");
  await reject.getByRole("button", { name: "Reject event" }).click();
  await expect(reject).toHaveCount(0);
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

  const email = await sql().query(
    `SELECT text FROM "EmailOutbox" WHERE "dedupeKey" LIKE 'moderation:%' AND "toEmail" = $1 AND subject LIKE '%not approved%'`,
    [event.creator.email],
  );
  expect(email.rows[0].text).toContain("The reason given: Duplicate of an existing event.");

  await page.getByRole("button", { name: "Delete All" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toContainText("This cannot be undone.");
  // the dialog names what it deletes, and what it keeps because money is on it
  await expect(dialog.getByRole("listitem").filter({ hasText: testEvent.title })).toBeVisible();
  const keptList = dialog.getByRole("list", { name: "Test events kept" });
  await expect(keptList.getByRole("listitem").filter({ hasText: charged.title })).toBeVisible();
  await expect(keptList.getByRole("listitem").filter({ hasText: testEvent.title })).toHaveCount(0);
  await expect(dialog).toContainText("can be cancelled from its event page instead");
  await dialog.getByRole("button", { name: "Yes, delete them" }).click();
  const answer = page.getByRole("alert").filter({ hasText: /Successfully deleted \d+ test event\(s\)\./ });
  await expect(answer).toContainText(`because money is on`);
  await expect(answer).toContainText(`"${charged.title}"`);
  await expect(answer).toContainText("every charged backer is refunded");
  const { rows } = await sql().query(
    `SELECT count(*)::int AS n FROM "Campaign" WHERE "isTest" AND id <> $1`,
    [charged.id],
  );
  expect(rows[0].n).toBe(0);
  const pledges = await sql().query(`SELECT count(*)::int AS n FROM "Pledge" WHERE "campaignId" = $1`, [
    testEvent.id,
  ]);
  expect(pledges.rows[0].n).toBe(0);
  const kept = await sql().query(`SELECT "paymentIntentId" FROM "Pledge" WHERE "campaignId" = $1`, [
    charged.id,
  ]);
  expect(kept.rows).toEqual([{ paymentIntentId: `pi_demo_${chargedPledge}` }]);

  // only the kept event is left: the dialog says nothing can be deleted and offers no delete
  await page.getByRole("button", { name: "Delete All" }).click();
  await expect(dialog).toContainText("None of the test events can be deleted.");
  await expect(dialog.getByRole("button", { name: "Yes, delete them" })).toHaveCount(0);
  // the dialog's own "Close" button (the × in its corner is named "Close" too)
  await dialog.getByRole("button", { name: "Close", exact: true }).last().click();
  await expect(dialog).toHaveCount(0);

  // once it is no longer a test event, nothing is left to delete
  await sql().query(`UPDATE "Campaign" SET "isTest" = false WHERE id = $1`, [charged.id]);
  await page.reload();
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

test("a tipped event offers no Reject; rows show state and money; search and pages", async ({ page }) => {
  const admin = await createUser({ isAdmin: true });
  const t = Date.now().toString(36);
  const charged = await createCampaign({
    title: `Charged show ${t}`,
    status: "charged",
    goal: 2,
    ticketPriceCents: 1500,
  });
  const backer = await createUser();
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "chargeStatus", charged, "chargedAt")
     VALUES ($1, $2, $3, 'x', 1500, 'succeeded', true, now())`,
    [`p${t}`, charged.id, backer.id],
  );
  await sql().query(`UPDATE "Campaign" SET "committedCount" = 2 WHERE id = $1`, [charged.id]);
  await loginAs(page, admin);

  // searched by title: only that event, with its state and money, and no Reject
  await page.goto("/admin");
  await page.getByRole("searchbox", { name: "Search events" }).fill(`Charged show ${t}`);
  await page.getByRole("button", { name: "Search", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/admin\\?q=Charged\\+show\\+${t}`));
  const approved = page.getByRole("region", { name: /^Approved/ });
  await expect(approved.getByRole("heading")).toHaveText("Approved (1)");
  const row = approved.getByRole("listitem");
  await expect(row).toHaveCount(1);
  await expect(row).toContainText("Confirmed");
  await expect(row).toContainText("$30.00 committed · $15.00 collected");
  await expect(row.getByRole("button", { name: /^Reject/ })).toHaveCount(0);
  // the event page's admin panel and the home card agree
  await page.goto(`/campaign/${charged.id}`);
  await expect(page.getByRole("region", { name: "Admin: approval status" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Reject/ })).toHaveCount(0);

  // more approved events than a page holds: the dashboard pages through them
  const { rows } = await sql().query(
    `SELECT count(*)::int AS n FROM "Campaign" WHERE "approvalStatus" = 'approved'`,
  );
  const missing = Math.max(0, 51 - rows[0].n);
  for (let i = 0; i < missing; i++) await createCampaign({ title: `Filler ${t} ${i}` });
  await page.goto("/admin");
  const pages = page.getByRole("navigation", { name: "Approved pages" });
  await expect(pages).toContainText(/Page 1 of \d+/);
  await pages.getByRole("link", { name: "Older →" }).click();
  await expect(page).toHaveURL(/\/admin\?approved=2#section-approved$/);
  await expect(page.getByRole("navigation", { name: "Approved pages" })).toContainText(/Page 2 of \d+/);
  await expect(
    page.getByRole("navigation", { name: "Approved pages" }).getByRole("link", { name: "← Newer" }),
  ).toBeVisible();
});
