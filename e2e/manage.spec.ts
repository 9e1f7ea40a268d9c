import { createCampaign, createUser, expect, loginAs, sql, test } from "./fixtures";

const DENIED = "Campaign not found or you don't have permission to manage it";

/**
 * The charging sweeper (every minute, on the minute) charges funded campaigns by itself. A test that
 * presses the manual button starts away from the minute mark so the sweeper does not get there first.
 */
async function awayFromSweeper() {
  const s = new Date().getSeconds();
  if (s >= 35 || s < 5) await new Promise((r) => setTimeout(r, (((65 - s) % 60) + 1) * 1000));
}

async function pledgeWithCard(campaignId: string, name: string, cents: number) {
  const user = await createUser({ name });
  const pm = `pm_demo_${Math.random().toString(16).slice(2, 14)}${Math.random().toString(16).slice(2, 14)}`;
  await sql().query(
    `INSERT INTO "DemoPaymentMethod" (id, "userId", brand, last4, "expMonth", "expYear", behavior) VALUES ($1,$2,'visa','4242',12,2030,'ok')`,
    [pm, user.id],
  );
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "cardBrand", "cardLast4")
     VALUES ($1,$2,$3,$4,$5,$6,'visa','4242')`,
    [`p${Math.random().toString(36).slice(2, 14)}`, campaignId, user.id, name, cents, pm],
  );
  await sql().query(
    `UPDATE "Campaign" SET "committedCount" = "committedCount" + 1, "pledgeCount" = "pledgeCount" + 1 WHERE id = $1`,
    [campaignId],
  );
  return user;
}

test("creator: stats, empty state, commitments newest first, CSV export", async ({ page }) => {
  const creator = await createUser({ name: "Organizer Olga" });
  const empty = await createCampaign({ title: "Manage empty event", creator, goal: 10 });
  await loginAs(page, creator);
  await page.goto(`/campaign/${empty.id}/manage`);
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Manage empty event");
  await expect(page.getByText("No pledges yet. Share your campaign to get started!")).toBeVisible();

  const event = await createCampaign({
    title: "Manage busy event",
    creator,
    goal: 4,
    ticketPriceCents: 1500,
  });
  await pledgeWithCard(event.id, "Older Backer", 1500);
  await pledgeWithCard(event.id, "Newer Backer", 1500);
  await sql().query(
    `UPDATE "Pledge" SET "createdAt" = now() - interval '1 hour' WHERE contributor = 'Older Backer'`,
  );
  await page.goto(`/campaign/${event.id}/manage`);
  await expect(page.getByText("Total Commitments")).toBeVisible();
  await expect(page.getByText("50%")).toBeVisible();
  await expect(page.getByRole("status").first()).toContainText("Active: collecting commitments");
  await expect(page.getByRole("heading", { name: "Privacy" })).toBeVisible();
  await expect(page.getByText("As the organizer you always see who committed.")).toBeVisible();
  await expect(page.getByRole("img", { name: /Commitments over time: 2 of 4/ })).toBeVisible();
  const rows = page.getByRole("list", { name: "Commitments, newest first" }).getByRole("listitem");
  await expect(rows.nth(1)).toContainText("Newer Backer");
  await expect(rows.nth(2)).toContainText("Older Backer");
  // Before the threshold nobody can be charged.
  await expect(page.getByText("Charging becomes available once the threshold is met.")).toBeVisible();

  const csv = await page.request.get(`/campaign/${event.id}/commitments.csv`);
  expect(csv.status()).toBe(200);
  expect(csv.headers()["content-type"]).toContain("text/csv");
  const text = await csv.text();
  expect(text.split("\r\n")[1]).toContain('"Newer Backer"');
  expect(text).toContain('"15.00"');
});

test("creator: manual charge names the attendees and the price, then reports the result", async ({
  page,
}) => {
  await awayFromSweeper();
  const creator = await createUser({ name: "Charging Chris" });
  const event = await createCampaign({
    title: "Manage funded event",
    creator,
    goal: 2,
    ticketPriceCents: 1200,
    status: "funded",
  });
  await pledgeWithCard(event.id, "Payer One", 1200);
  await pledgeWithCard(event.id, "Payer Two", 1200);
  await loginAs(page, creator);
  await page.goto(`/campaign/${event.id}/manage`);
  await page.getByRole("button", { name: "Charge 2 attendees" }).click();
  const dialog = page.getByRole("dialog", { name: "Charge attendees?" });
  await expect(dialog).toContainText("Charge 2 attendees $12.00 each?");
  await dialog.getByRole("button", { name: "Charge now" }).click();
  await expect(page.getByText(/Successfully charged \d+ attendees\. 0 failed\./)).toBeVisible();
  // The job may have raced the button to some of them; either way both end charged, once.
  await expect
    .poll(
      async () =>
        (
          await sql().query(`SELECT count(*)::int AS n FROM "Pledge" WHERE "campaignId" = $1 AND charged`, [
            event.id,
          ])
        ).rows[0].n,
    )
    .toBe(2);
  await page.reload();
  await expect(page.getByText("Paid", { exact: true })).toHaveCount(2);
});

test("another user, an admin and a visitor are sent home with the notice; the CSV is refused", async ({
  page,
}) => {
  const event = await createCampaign({ title: "Manage forbidden event" });
  for (const who of [
    await createUser({ name: "Nosy Neighbour" }),
    await createUser({ name: "Admin Ada", isAdmin: true }),
    null,
  ]) {
    await page.context().clearCookies();
    if (who) await loginAs(page, who);
    await page.goto(`/campaign/${event.id}/manage`);
    await expect(page).toHaveURL(/\/(\?.*)?$/);
    await expect(page.getByRole("alert").filter({ hasText: DENIED })).toBeVisible();
    const csv = await page.request.get(`/campaign/${event.id}/commitments.csv`);
    expect(csv.status()).toBe(404);
  }
  await page.goto(`/campaign/doesnotexist123/manage`);
  await expect(page.getByRole("alert").filter({ hasText: DENIED })).toBeVisible();
});

test("a confirmed free event: every seat says VERIFIED, no Paid and no Charge column, at 375 and 1440 px", async ({
  page,
}) => {
  const creator = await createUser({ name: "Free Organizer" });
  const event = await createCampaign({ title: "Free picnic", creator, goal: 3, status: "charged" });
  const holder = await createUser({ name: "Group Holder" });
  const solo = await createUser({ name: "Solo Backer" });
  const group = `p${Math.random().toString(36).slice(2, 14)}`;
  for (const [id, user, slot] of [
    [group, holder, 0],
    [`p${Math.random().toString(36).slice(2, 14)}`, holder, 1],
    [`p${Math.random().toString(36).slice(2, 14)}`, solo, 0],
  ] as const)
    await sql().query(
      `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", charged, verified, "chargeType",
         "chargeStatus", "chargedAt", "groupId", "guestSlot")
       VALUES ($1,$2,$3,$4,0,true,true,'free','succeeded',now(),$5,$6)`,
      [id, event.id, user.id, user.name, user.id === holder.id ? group : null, slot],
    );
  await sql().query(`UPDATE "Campaign" SET "committedCount" = 3, "pledgeCount" = 3 WHERE id = $1`, [
    event.id,
  ]);
  await loginAs(page, creator);
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`/campaign/${event.id}/manage`);
    const list = page.getByRole("list", { name: "Commitments, newest first" });
    await expect(list.getByText("VERIFIED", { exact: true })).toHaveCount(3);
    await expect(list.getByText("Paid", { exact: true })).toHaveCount(0);
    await expect(list.getByText("Holds 2 seats")).toBeVisible();
    await expect(list.getByText("Guest 1")).toBeVisible();
    if (width === 1440) {
      await expect(list.getByText("Status", { exact: true })).toBeVisible();
      await expect(list.getByText("Charge", { exact: true })).toHaveCount(0);
    }
  }
});
