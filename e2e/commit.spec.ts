import { createCampaign, createUser, expect, fillCard, loginAs, sql, test, type TestUser } from "./fixtures";

/** A pledge already made by someone else (optionally with a saved demo card). */
async function pledge(campaignId: string, user: TestUser, opts: { cents?: number; card?: boolean } = {}) {
  let pm: string | null = null;
  if (opts.card) {
    pm = `pm_demo_${Math.random().toString(16).slice(2, 14)}${Math.random().toString(16).slice(2, 14)}`;
    await sql().query(
      `INSERT INTO "DemoPaymentMethod" (id, "userId", brand, last4, "expMonth", "expYear", behavior) VALUES ($1,$2,'visa','4242',12,2030,'ok')`,
      [pm, user.id],
    );
  }
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "cardBrand", "cardLast4")
     VALUES ($1,$2,$3,$4,$5,$6,$7,$8)`,
    [
      `p${Math.random().toString(36).slice(2, 14)}`,
      campaignId,
      user.id,
      user.name ?? user.email,
      opts.cents ?? 0,
      pm,
      pm ? "visa" : null,
      pm ? "4242" : null,
    ],
  );
  await sql().query(
    `UPDATE "Campaign" SET "committedCount" = "committedCount" + 1, "pledgeCount" = "pledgeCount" + 1 WHERE id = $1`,
    [campaignId],
  );
}

test("signed out: Commit asks to sign in and links to /profile, with the way back", async ({ page }) => {
  const event = await createCampaign({ title: "Signed-out commit picnic" });
  await page.goto(`/campaign/${event.id}`);
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  const prompt = page.getByRole("alert").filter({ hasText: "Please sign in to commit to this event" });
  await expect(prompt).toBeVisible();
  await prompt.getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(new RegExp(`/profile\\?next=%2Fcampaign%2F${event.id}%3Fcommit%3D1$`));
});

test("free event to its threshold: Event Confirmed!, then Commit is disabled", async ({ page }) => {
  const event = await createCampaign({ title: "Free threshold picnic", goal: 2 });
  await pledge(event.id, await createUser({ name: "Early Bird" }));
  const me = await createUser({ name: "Closing Committer" });
  await loginAs(page, me);
  await page.goto(`/campaign/${event.id}`);

  await page.getByRole("button", { name: "Commit", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm Your Commitment" });
  await expect(confirm).toContainText("1 / 2");
  await expect(confirm).toContainText("Free: nobody pays");
  await confirm.getByRole("button", { name: "Yes, I'm In!" }).click();

  const result = page.getByRole("dialog", { name: "Event Confirmed!" });
  await expect(result).toBeVisible();
  await expect(result).toContainText("Check your email");
  await result.getByRole("button", { name: "Close", exact: true }).last().click();
  await expect(result).toBeHidden();

  await expect(page.getByRole("button", { name: "You're in" })).toBeDisabled();
  await expect(page.getByText("You have already committed to this event")).toBeVisible();
  // Free at the threshold: confirmed at once, every pledge verified.
  const { rows } = await sql().query(
    `SELECT status::text, "chargeType"::text FROM "Campaign" WHERE id = $1`,
    [event.id],
  );
  expect(rows[0]).toEqual({ status: "charged", chargeType: "free" });
  await expect(page.getByText("VERIFIED", { exact: true })).toHaveCount(2);

  // Someone else now finds the event closed.
  const late = await createUser({ name: "Too Late" });
  await page.context().clearCookies();
  await loginAs(page, late);
  await page.goto(`/campaign/${event.id}`);
  // issue 16: the call to action follows the phase, and a confirmed free event never says "charged"
  await expect(page.getByRole("button", { name: "Confirmed", exact: true })).toBeDisabled();
  await expect(page.getByText("This event is confirmed. It is happening.")).toBeVisible();
  await expect(page.getByText(/charged/)).toHaveCount(0);
});

test("paid event: the declined card is refused inline, 4242 saves and the pledge is recorded", async ({
  page,
}) => {
  const event = await createCampaign({ title: "Paid cooking class", goal: 5, ticketPriceCents: 2500 });
  const me = await createUser({ name: "Card Holder" });
  await loginAs(page, me);
  await page.goto(`/campaign/${event.id}`);

  await page.getByRole("button", { name: "Commit", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm Your Commitment" });
  await expect(confirm).toContainText("$25.00");
  await expect(confirm).toContainText("0 / 5");
  await confirm.getByRole("button", { name: "Yes, I'm In!" }).click();

  const payment = page.getByRole("dialog", { name: "Save Payment Method" });
  await expect(payment).toContainText("$25.00");
  await expect(payment).toContainText("Demo payments");
  await fillCard(page, "4000 0000 0000 0002");
  await expect(payment.getByRole("alert")).toHaveText("Your card was declined.");
  const { rows: none } = await sql().query(
    `SELECT count(*)::int AS n FROM "Pledge" WHERE "campaignId" = $1`,
    [event.id],
  );
  expect(none[0].n).toBe(0);

  await fillCard(page, "4242 4242 4242 4242");
  const result = page.getByRole("dialog", { name: "You're Committed!" });
  await expect(result).toBeVisible();
  await expect(result).toContainText("4 more people needed");
  await expect(result).toContainText("Share this event");
  await result.getByRole("button", { name: "Close", exact: true }).last().click();

  await expect(page.getByRole("button", { name: "You're in" })).toBeDisabled();
  const list = page.getByRole("region", { name: "Commitments" });
  await expect(list).toContainText("Card Holder");
  await expect(list).toContainText("PENDING");
  const { rows } = await sql().query(
    `SELECT "amountCents", "cardLast4", "paymentMethodId" FROM "Pledge" WHERE "campaignId" = $1`,
    [event.id],
  );
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ amountCents: 2500, cardLast4: "4242" });

  // The details modal.
  await list.getByRole("button", { name: /Commitment details: Card Holder/ }).click();
  const details = page.getByRole("dialog", { name: "Commitment Details" });
  await expect(details).toContainText("$25.00");
  await expect(details).toContainText("PENDING");
  await expect(details).toContainText("Not specified");
});

test("paid event: one more person needed reads singular, hidden attendees stay anonymous", async ({
  page,
}) => {
  const event = await createCampaign({ title: "Paid singular event", goal: 3, ticketPriceCents: 1000 });
  await pledge(event.id, await createUser({ name: "Secret Sam" }), { cents: 1000, card: true });
  const me = await createUser({ name: "Second Backer" });
  await loginAs(page, me);
  await page.goto(`/campaign/${event.id}`);
  const list = page.getByRole("region", { name: "Commitments" });
  await expect(list).toContainText("Anonymous Attendee #1");
  await expect(page.locator("body")).not.toContainText("Secret Sam");

  await page.getByRole("button", { name: "Commit", exact: true }).click();
  await page.getByRole("button", { name: "Yes, I'm In!" }).click();
  await fillCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("dialog", { name: "You're Committed!" })).toContainText("1 more person needed");
});

test("paid event reaching its threshold: Event Confirmed!, and the charging job charges the card once", async ({
  page,
}) => {
  const event = await createCampaign({ title: "Paid threshold dinner", goal: 2, ticketPriceCents: 3000 });
  await pledge(event.id, await createUser({ name: "First Diner" }), { cents: 3000, card: true });
  await loginAs(page, await createUser({ name: "Second Diner" }));
  await page.goto(`/campaign/${event.id}`);
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  await page.getByRole("button", { name: "Yes, I'm In!" }).click();
  await fillCard(page, "4242 4242 4242 4242");
  const result = page.getByRole("dialog", { name: "Event Confirmed!" });
  await expect(result).toBeVisible();
  await expect(result).toContainText("$30.00 each");
  await expect(result).toContainText("Check your email");
  await expect
    .poll(
      async () =>
        (await sql().query(`SELECT status::text FROM "Campaign" WHERE id = $1`, [event.id])).rows[0].status,
      { timeout: 30_000 },
    )
    .toBe("charged");
  const { rows } = await sql().query(
    `SELECT charged, "chargeType"::text, "chargeAttempts" FROM "Pledge" WHERE "campaignId" = $1`,
    [event.id],
  );
  expect(rows).toEqual([
    { charged: true, chargeType: "paid", chargeAttempts: 1 },
    { charged: true, chargeType: "paid", chargeAttempts: 1 },
  ]);
  await result.getByRole("button", { name: "Close", exact: true }).last().click();
  await expect(page.getByRole("button", { name: "You're in" })).toBeDisabled();
  await expect(page.getByText("You have already committed to this event")).toBeVisible();
});

test("payment setup failing to start shows the SPEC message with the error", async ({ page }) => {
  const event = await createCampaign({ title: "Paid init failure", goal: 5, ticketPriceCents: 1000 });
  await loginAs(page, await createUser());
  await page.route("**/api/create-setup-intent", (route) =>
    route.fulfill({ status: 503, body: "provider down" }),
  );
  await page.goto(`/campaign/${event.id}`);
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  await page.getByRole("button", { name: "Yes, I'm In!" }).click();
  await expect(page.getByRole("dialog", { name: "Save Payment Method" }).getByRole("alert")).toHaveText(
    "Failed to initialize payment. Please try again. Error: 503 provider down",
  );
  const { rows } = await sql().query(`SELECT count(*)::int AS n FROM "Pledge" WHERE "campaignId" = $1`, [
    event.id,
  ]);
  expect(rows[0].n).toBe(0);
});

test("paid event, a group of 3 (issue 37): the dialog says 3 people × $8.00 = $24.00, and one charge covers the 3 seats", async ({
  page,
}) => {
  const event = await createCampaign({ title: "Paid group supper", goal: 3, ticketPriceCents: 800 });
  await sql().query(`UPDATE "Campaign" SET "maxSeats" = 4 WHERE id = $1`, [event.id]);
  await loginAs(page, await createUser({ name: "Group Holder" }));
  await page.goto(`/campaign/${event.id}`);
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  await page.getByRole("button", { name: "Me + 2" }).click();
  await expect(page.getByTestId("commit-group-total")).toHaveText(
    "Your group pays once: 3 people × $8.00 = $24.00",
  );
  // the dialog's money sentence says the group's amount too, never one person's $8.00
  const dialog = page.getByRole("dialog");
  await expect(
    dialog.getByText(/You're charged \$24\.00 for 3 people \(\$8\.00 each\) only if/),
  ).toBeVisible();
  await expect(dialog.getByText(/You're charged \$8\.00 only if/)).toHaveCount(0);
  await page.getByRole("button", { name: "Yes, I'm In!" }).click();
  await expect(page.getByText("3 people × $8.00 = $24.00")).toBeVisible();
  await fillCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("dialog", { name: "Event Confirmed!" })).toBeVisible();
  await expect
    .poll(
      async () =>
        (await sql().query(`SELECT status::text FROM "Campaign" WHERE id = $1`, [event.id])).rows[0].status,
      { timeout: 30_000 },
    )
    .toBe("charged");
  const { rows: seats } = await sql().query(
    `SELECT charged, "amountCents" FROM "Pledge" WHERE "campaignId" = $1 ORDER BY "guestSlot"`,
    [event.id],
  );
  expect(seats).toEqual([
    { charged: true, amountCents: 800 },
    { charged: true, amountCents: 800 },
    { charged: true, amountCents: 800 },
  ]);
  const { rows: money } = await sql().query(
    `SELECT m."amountCents"::int AS "amountCents", (SELECT count(*)::int FROM "MoneyMovementPledge" mp WHERE mp."movementId" = m.id) AS seats
     FROM "MoneyMovement" m WHERE m."campaignId" = $1 AND m.kind = 'charge' AND m.state = 'succeeded'`,
    [event.id],
  );
  expect(money).toEqual([{ amountCents: 2400, seats: 3 }]);
});

test("a group of 3 at an event with a show-up deposit (issues 36 × 37): the dialog says the group's amounts, and one charge of 3 × (price + deposit) covers each seat's ticket and deposit", async ({
  page,
}) => {
  const event = await createCampaign({ title: "Deposit group supper", goal: 3, ticketPriceCents: 800 });
  await sql().query(
    `UPDATE "Campaign" SET "maxSeats" = 4, "depositCents" = 500, "startsAt" = now() + interval '9 days', venue = 'Old Hall' WHERE id = $1`,
    [event.id],
  );
  await loginAs(page, await createUser({ name: "Deposit Holder" }));
  await page.goto(`/campaign/${event.id}`);
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  await page.getByRole("button", { name: "Me + 2" }).click();
  await expect(page.getByTestId("commit-group-total")).toHaveText(
    "Your group pays once: 3 people × $13.00 = $39.00",
  );
  await expect(page.getByTestId("commit-deposit")).toContainText(
    "3 × $8.00 tickets + 3 × $5.00 show-up deposits = $39.00, each deposit refunded when its person checks in",
  );
  const dialog = page.getByRole("dialog");
  await expect(
    dialog.getByText(/You're charged \$39\.00 for 3 people \(\$13\.00 each\) only if/),
  ).toBeVisible();
  await page.getByRole("button", { name: "Yes, I'm In!" }).click();
  await expect(page.getByText("3 people × $13.00 = $39.00")).toBeVisible();
  await fillCard(page, "4242 4242 4242 4242");
  await expect(page.getByRole("dialog", { name: "Event Confirmed!" })).toBeVisible();
  await expect
    .poll(
      async () =>
        (await sql().query(`SELECT status::text FROM "Campaign" WHERE id = $1`, [event.id])).rows[0].status,
      { timeout: 30_000 },
    )
    .toBe("charged");
  const { rows: money } = await sql().query(
    `SELECT m.purpose::text AS purpose, m."amountCents"::int AS "amountCents",
       (SELECT array_agg(mp."amountCents"::int) FROM "MoneyMovementPledge" mp WHERE mp."movementId" = m.id) AS shares
     FROM "MoneyMovement" m WHERE m."campaignId" = $1 AND m.kind = 'charge' AND m.state = 'succeeded' ORDER BY m.purpose`,
    [event.id],
  );
  expect(money).toEqual([
    { purpose: "ticket", amountCents: 2400, shares: [800, 800, 800] },
    { purpose: "deposit", amountCents: 1500, shares: [500, 500, 500] },
  ]);
});
