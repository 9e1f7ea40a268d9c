import { createCampaign, createUser, expect, fillCard, loginAs, sql, test } from "./fixtures";

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

  // The demo card that saves but whose charge fails: declined again, nothing recorded as paid.
  await fillCard(page, "4000 0000 0000 0341");
  await expect(page.getByRole("alert").filter({ hasText: "declined" })).toHaveText("Your card was declined.");

  await fillCard(page, "4242 4242 4242 4242");
  await expect(page.getByText("Paid on")).toBeVisible();
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
