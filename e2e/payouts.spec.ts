import { createCampaign, createUser, expect, fillCard, loginAs, sql, test } from "./fixtures";

/** Organizers get paid (issue 23), in demo mode: the onboarding stand-in, the hold, the payout, an admin's hold. */

test("an organizer onboards, runs a paid event to the tip, sees the pending payout, and after the hold sees it paid", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const t = Math.random().toString(36).slice(2, 8);
  const organizer = await createUser({ name: "Paula Payee", email: `payee-${t}@example.test` });
  await loginAs(page, organizer);
  // issue 31: an unconfirmed address cannot set up payouts (someone may have signed it up as a squatter)
  await page.goto("/payouts");
  await page.getByRole("button", { name: "Set up payouts" }).click();
  await expect(page.getByText(/^Confirm your email address before you set up payouts/)).toBeVisible();
  await sql().query(`UPDATE "User" SET "emailVerified" = now() WHERE id = $1`, [organizer.id]);
  await page.goto("/payouts");
  await expect(page.getByRole("heading", { name: "Payouts", exact: true })).toBeVisible();
  await expect(page.getByText("Not set up")).toBeVisible();
  await page.getByRole("button", { name: "Set up payouts" }).click();
  // the clearly marked demo stand-in for Stripe's onboarding
  await expect(page.getByText(/^DEMO — this page stands in for Stripe/)).toBeVisible();
  await page.getByRole("button", { name: "Complete onboarding (account ready)" }).click();
  await expect(page).toHaveURL(/\/payouts\?from=onboarding$/);
  await expect(page.getByText("Ready", { exact: true })).toBeVisible();

  const event = await createCampaign({
    title: `Paid supper ${t}`,
    goal: 1,
    ticketPriceCents: 2000,
    creator: organizer,
  });
  const backerPage = await browser.newPage();
  await loginAs(backerPage, await createUser({ name: "Bea Backer" }));
  await backerPage.goto(`/campaign/${event.id}`);
  await backerPage.getByRole("button", { name: "Commit", exact: true }).click();
  await backerPage.getByRole("button", { name: "Yes, I'm In!" }).click();
  await fillCard(backerPage, "4242 4242 4242 4242");
  await expect(backerPage.getByRole("dialog", { name: "Event Confirmed!" })).toContainText(
    "Your card was charged $20.00.",
  );

  // $20.00 less the demo processing fee (2.9% + 30¢ = 88¢), no platform fee by default
  await page.goto("/payouts");
  const row = page.getByRole("listitem").filter({ hasText: `Paid supper ${t}` });
  await expect(row.getByText("Payout pending", { exact: true })).toBeVisible(); // the badge
  // the payout sweeper reads the processing fee within a minute of the charge
  await expect(async () => {
    await page.goto("/payouts");
    await expect(row).toContainText("$19.12", { timeout: 1_000 });
  }).toPass({ timeout: 120_000, intervals: [5_000] });
  await expect(row).toContainText("Next payout:");

  // the hold passes (the tip moved back 8 days); the payout sweeper runs every minute
  await sql().query(`UPDATE "Campaign" SET "fundedAt" = now() - interval '8 days' WHERE id = $1`, [event.id]);
  await expect(async () => {
    await page.goto("/payouts");
    await expect(page.getByText("Transfer · $19.12")).toBeVisible({ timeout: 1_000 });
  }).toPass({ timeout: 180_000, intervals: [5_000] });
  const paid = page
    .getByRole("listitem")
    .filter({ hasText: `Paid supper ${t}` })
    .filter({ hasText: "Collected" });
  await expect(paid).not.toContainText("Next payout:");
  await expect(paid.getByText("Pending", { exact: true })).toHaveCount(1); // the column only, no badge
  await expect(page.getByText(/^tr_demo_/)).toBeVisible();
  const { rows } = await sql().query(
    `SELECT kind::text, status::text, "amountCents"::int AS cents FROM "Payout" WHERE "campaignId" = $1`,
    [event.id],
  );
  expect(rows).toEqual([{ kind: "transfer", status: "succeeded", cents: 1912 }]);
});

test("an admin holds a payout with a reason; the organizer sees why", async ({ page, browser }) => {
  const t = Math.random().toString(36).slice(2, 8);
  const organizer = await createUser({ name: "Hal Held", email: `held-${t}@example.test` });
  await sql().query(
    `INSERT INTO "PayoutAccount" ("userId", provider, "accountId", status, "updatedAt") VALUES ($1, 'demo', $2, 'ready', now())`,
    [organizer.id, `acct_demo_${t}`],
  );
  const event = await createCampaign({
    title: `Disputed dinner ${t}`,
    goal: 1,
    ticketPriceCents: 5000,
    creator: organizer,
    status: "charged",
  });
  const backer = await createUser();
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", charged, "chargedAt", "chargeType", "chargeStatus", "processingFeeCents")
     VALUES ($1, $2, $3, 'x', 5000, true, now(), 'paid', 'succeeded', 175)`,
    [`p${t}`, event.id, backer.id],
  );
  // a charge is a money row too (lib/ledger), which the payout ledger sums
  await sql().query(
    `INSERT INTO "MoneyMovement" (kind, purpose, state, "amountCents", "idempotencyKey", "campaignId", "pledgeId")
     VALUES ('charge', 'ticket', 'succeeded', 5000, $1, $2, $3)`,
    [`charge-p${t}`, event.id, `p${t}`],
  );
  await sql().query(`UPDATE "Campaign" SET "fundedAt" = now() WHERE id = $1`, [event.id]);

  await loginAs(page, await createUser({ isAdmin: true, name: "Admin" }));
  await page.goto("/admin");
  await page.getByRole("link", { name: "Payouts →" }).click();
  const upcoming = page.getByRole("listitem").filter({ hasText: `Disputed dinner ${t}` });
  await expect(upcoming).toContainText(`$48.25 to held-${t}@example.test`);
  await upcoming.getByRole("button", { name: "Hold payout" }).click();
  await upcoming
    .getByLabel(`Why hold the payout of "Disputed dinner ${t}"?`)
    .fill("Chargeback opened by the card issuer");
  await upcoming.getByRole("button", { name: "Hold payout" }).click();
  const held = page.getByRole("listitem").filter({ hasText: `Disputed dinner ${t}` });
  await expect(held).toContainText("Chargeback opened by the card issuer");
  await expect(held.getByRole("button", { name: "Release payout" })).toBeVisible();

  const organizerPage = await browser.newPage();
  await loginAs(organizerPage, organizer);
  await organizerPage.goto("/payouts");
  await expect(
    organizerPage.getByText("Held by PactNexus: Chargeback opened by the card issuer"),
  ).toBeVisible();
  await expect(organizerPage.getByText("Payout held")).toBeVisible();
});
