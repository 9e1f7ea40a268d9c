import { createCampaign, createUser, expect, fillCard, loginAs, saveDemoCard, sql, test } from "./fixtures";

/** A confirmed paid event where `backer`'s off-session charge was declined. */
async function failedPledge() {
  const backer = await createUser({ name: "Declined Dana" });
  const event = await createCampaign({
    title: "Recovery test event",
    goal: 1,
    ticketPriceCents: 3000,
    status: "charged",
  });
  const pledgeId = `p${Math.random().toString(36).slice(2, 14)}`;
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "cardBrand", "cardLast4",
       "chargeStatus", "chargeAttempts", "chargeFailureCode", "chargeFailureMessage", "chargeClaimedAt")
     VALUES ($1,$2,$3,'Declined Dana',3000,'pm_demo_gone','visa','0341','failed',1,'card_declined','Your card was declined.',now())`,
    [pledgeId, event.id, backer.id],
  );
  return { backer, event, pledgeId };
}

test("the backer of a declined charge updates the card and pays on-session", async ({ page }) => {
  const { backer, pledgeId } = await failedPledge();
  await loginAs(page, backer);
  await page.goto(`/pledges/${pledgeId}/pay`);
  await expect(page.getByRole("heading", { name: "Complete your payment" })).toBeVisible();
  await expect(page.getByText("Payment failed")).toBeVisible();
  await expect(page.getByText("we could not charge Visa ending in 0341")).toBeVisible();

  // The button says what it does: it charges.
  await expect(page.getByRole("button", { name: "Pay $30.00" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Save Card" })).toHaveCount(0);

  // The demo card that saves but whose charge fails: declined again, nothing recorded as paid.
  await fillCard(page, "4000 0000 0000 0341", "Pay $30.00");
  const main = page.getByRole("main");
  await expect(main.getByRole("alert")).toHaveText("Your card was declined.");

  // One error at a time: a new attempt clears the last one before showing its own
  await fillCard(page, "4242 4242 4242 4241", "Pay $30.00");
  await expect(main.getByRole("alert")).toHaveCount(1);
  await expect(main.getByRole("alert")).not.toHaveText("Your card was declined.");

  await fillCard(page, "4242 4242 4242 4242", "Pay $30.00");
  // the page becomes the receipt
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  const receipt = page.getByRole("definition");
  await expect(page.getByRole("term")).toHaveText(["Amount", "Card", "Paid on", "Reference"]);
  await expect(receipt.nth(0)).toHaveText("$30.00");
  await expect(receipt.nth(1)).toHaveText("Visa ending in 4242");
  await expect(receipt.nth(2)).toContainText(/\d{4}/);
  await expect(receipt.nth(3)).toHaveText(/^PN-[0-9A-Z]{4}-[0-9A-Z]{4}$/); // readable, not the provider's pi_…
  await expect(main.getByRole("alert")).toHaveCount(0);
  const { rows } = await sql().query(
    `SELECT "chargeStatus", charged, verified, "cardLast4", "chargeAttempts" FROM "Pledge" WHERE id = $1`,
    [pledgeId],
  );
  expect(rows[0]).toEqual({
    chargeStatus: "succeeded",
    charged: true,
    verified: true,
    cardLast4: "4242",
    chargeAttempts: 3,
  });
  const intents = await sql().query(
    `SELECT count(*)::int AS n FROM "DemoPaymentIntent" WHERE metadata->>'pledgeId' = $1 AND status = 'succeeded'`,
    [pledgeId],
  );
  expect(intents.rows[0].n).toBe(1);
});

test("nobody else can open the page; signed-out visitors are sent to sign in", async ({ page }) => {
  const { pledgeId } = await failedPledge();
  await page.goto(`/pledges/${pledgeId}/pay`);
  await expect(page).toHaveURL(/\/profile\?next=%2Fpledges%2F/);
  const other = await createUser({ name: "Someone Else" });
  await loginAs(page, other);
  await page.goto(`/pledges/${pledgeId}/pay`);
  await expect(page.getByText("404 Page Not Found")).toBeVisible();
  await expect(page.getByText("Declined Dana")).toHaveCount(0);
});

test("the event page tells the backer whose charge failed, and no one is told every attendee was charged", async ({
  page,
}) => {
  const { backer, event, pledgeId } = await failedPledge();
  await loginAs(page, backer);
  await page.goto(`/campaign/${event.id}`);
  await expect(page.getByText("Event Confirmed!")).toBeVisible();
  await expect(page.getByText("Attendees are charged $30.00 each.")).toBeVisible();
  await expect(page.getByText(/every attendee was charged/)).toHaveCount(0);
  // the backer's own card says what happened, by when to fix it, and what happens otherwise
  const banner = page.getByLabel("Your commitment").getByRole("alert");
  await expect(banner).toContainText(
    /Your \$30\.00 payment failed — update your card by \w{3}, \w{3} \d+, \d{4}/,
  );
  await expect(banner).toContainText("your place is released and you won't be charged");
  await banner.getByRole("link", { name: "Update card and pay" }).click();
  await expect(page).toHaveURL(new RegExp(`/pledges/${pledgeId}/pay$`));
  await expect(page.getByRole("button", { name: "Pay $30.00" })).toBeVisible();
});

test("goal 1 with card 0341: Commitment Recorded!, the banner, then paying with 4242 gives a receipt; the organizer hears of the tip and of charging", async ({
  page,
  browser,
}) => {
  test.setTimeout(240_000);
  const t = Math.random().toString(36).slice(2, 8);
  const organizer = await createUser({ name: "Olga Organizer", email: `org-${t}@example.test` });
  const event = await createCampaign({
    title: `Goal one supper ${t}`,
    goal: 1,
    ticketPriceCents: 1200,
    creator: organizer,
  });
  await loginAs(page, await createUser({ name: "Cara Crossing" }));
  await page.goto(`/campaign/${event.id}`);
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  await page.getByRole("button", { name: "Yes, I'm In!" }).click();
  await fillCard(page, "4000 0000 0000 0341");

  // SPEC §8: the commit that tipped the event tried the committer's own card at once, and it failed.
  const result = page.getByRole("dialog", { name: "Commitment Recorded!" });
  await expect(result).toBeVisible();
  await expect(result).toContainText("Your payment method has been saved successfully.");
  await expect(result.getByRole("alert")).toContainText("your $12.00 payment didn't go through");
  await expect(result.getByRole("link", { name: "Pay $12.00 now" })).toBeVisible();
  await result.getByRole("button", { name: "Close", exact: true }).last().click();

  const banner = page.getByLabel("Your commitment").getByRole("alert");
  await expect(banner).toContainText("Your $12.00 payment failed — update your card by");
  await banner.getByRole("link", { name: "Update card and pay" }).click();
  await expect(page.getByText(/Please pay by/)).toBeVisible();
  await fillCard(page, "4242 4242 4242 4242", "Pay $12.00");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByRole("definition").nth(0)).toHaveText("$12.00");
  const { rows } = await sql().query(
    `SELECT "chargeStatus"::text AS s, (SELECT count(*)::int FROM "DemoPaymentIntent" d WHERE d.metadata->>'pledgeId' = p.id AND d.status = 'succeeded') AS paid
     FROM "Pledge" p WHERE "campaignId" = $1`,
    [event.id],
  );
  expect(rows).toEqual([{ s: "succeeded", paid: 1 }]);

  // The organizer's "reached its goal" and "charging done" emails (queued by the email job's derivation).
  const admin = await browser.newPage();
  await loginAs(admin, await createUser({ isAdmin: true, name: "Admin" }));
  await expect(async () => {
    await admin.goto(`/admin/emails?to=${encodeURIComponent(organizer.email)}`);
    const subjects = await admin.getByTestId("email-subject").allTextContents();
    expect(subjects.some((s) => s.includes(`"Goal one supper ${t}" reached its goal`))).toBe(true);
    expect(subjects.some((s) => s.startsWith(`Charging done for "Goal one supper ${t}"`))).toBe(true);
  }).toPass({ timeout: 180_000, intervals: [5_000] });
});

test("a backer with a card on file pays the declined charge in one tap, at 375 and 1440 px", async ({
  page,
}) => {
  for (const width of [375, 1440]) {
    await page.setViewportSize({ width, height: 900 });
    const { backer, pledgeId } = await failedPledge();
    await saveDemoCard(backer.id, "mastercard", "4444");
    await page.goto("about:blank");
    await page.context().clearCookies();
    await loginAs(page, backer);
    await page.goto(`/pledges/${pledgeId}/pay`);
    await expect(page.getByText("Pay below to keep your place.")).toBeVisible();
    const tap = page.getByRole("button", { name: "Pay with Mastercard ·4444" });
    await expect(tap).toBeVisible();
    // the card sheet only on request
    await expect(page.getByRole("button", { name: "Pay $30.00" })).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Use a new card" })).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth > window.innerWidth);
    expect(overflow).toBe(false);

    await tap.click();
    await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
    await expect(page.getByRole("definition").nth(1)).toHaveText("Mastercard ending in 4444");
    const intents = await sql().query(
      `SELECT count(*)::int AS n FROM "DemoPaymentIntent" WHERE metadata->>'pledgeId' = $1 AND status = 'succeeded'`,
      [pledgeId],
    );
    expect(intents.rows[0].n).toBe(1);
    await page.waitForLoadState("networkidle");
  }
});

test("with a card on file, 'Use a new card' opens the card sheet", async ({ page }) => {
  const { backer, pledgeId } = await failedPledge();
  await saveDemoCard(backer.id, "visa", "1881");
  await loginAs(page, backer);
  await page.goto(`/pledges/${pledgeId}/pay`);
  await page.getByRole("button", { name: "Use a new card" }).click();
  await fillCard(page, "4242 4242 4242 4242", "Pay $30.00");
  await expect(page.getByRole("heading", { name: "Payment received" })).toBeVisible();
  await expect(page.getByRole("definition").nth(1)).toHaveText("Visa ending in 4242");
});
