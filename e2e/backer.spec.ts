import crypto from "node:crypto";
import { createCampaign, createUser, expect, fillCard, loginAs, sql, test } from "./fixtures";

/* Issue 18 (the backer's journey) and issue 17 (withdrawing after a change on a tipped event). */

test("commit, see it under My commitments with the card, change the card, withdraw: the count drops and Commit is back", async ({
  page,
}) => {
  const t = crypto.randomBytes(3).toString("hex");
  const event = await createCampaign({ title: `Withdrawable supper ${t}`, goal: 5, ticketPriceCents: 1800 });
  const backer = await createUser({ name: `Wanda ${t}` });
  await loginAs(page, backer);
  await page.goto(`/campaign/${event.id}`);
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  const confirm = page.getByRole("dialog", { name: "Confirm Your Commitment" });
  await expect(confirm).toContainText("You can withdraw until the goal is met");
  await confirm.getByRole("button", { name: "Yes, I'm In!" }).click();
  await fillCard(page, "4242 4242 4242 4242");
  const result = page.getByRole("dialog", { name: "You're Committed!" });
  await expect(result).toBeVisible();
  await result.getByRole("button", { name: "Close", exact: true }).last().click();

  // the event page: a positive "You're in" card with the card and what may be done
  const mine = page.getByLabel("Your commitment");
  await expect(mine).toContainText("Your commitment");
  await expect(mine).toContainText("Waiting — 4 more people needed");
  await expect(mine).toContainText("Visa ···· 4242");

  // My commitments on the profile
  await page.goto("/profile");
  const section = page.getByRole("region", { name: "My commitments" });
  await expect(section).toContainText(`Withdrawable supper ${t}`);
  await expect(section).toContainText("Waiting — 4 more people needed");
  await expect(section).toContainText("Visa ···· 4242");

  // change the card through the same save-a-card step
  await page.goto(`/campaign/${event.id}`);
  await mine.getByRole("button", { name: "Change card" }).click();
  await fillCard(page, "5555 5555 5555 4444");
  await expect(mine).toContainText("Mastercard ···· 4444");

  // withdraw
  await mine.getByRole("button", { name: "Withdraw" }).click();
  const dialog = page.getByRole("dialog", { name: "Withdraw your commitment?" });
  await expect(dialog).toContainText("Nothing is charged");
  await dialog.getByRole("button", { name: "Withdraw" }).click();
  await expect(page.getByRole("status").filter({ hasText: "You withdrew your commitment." })).toBeVisible();
  await expect(page.getByRole("button", { name: "Commit", exact: true })).toBeEnabled();
  await expect(page.getByText("0 / 5 attendees").first()).toBeVisible();

  const { rows } = await sql().query(
    `SELECT "withdrawnAt" IS NOT NULL AS withdrawn, "paymentMethodId" FROM "Pledge" WHERE "campaignId" = $1`,
    [event.id],
  );
  expect(rows).toEqual([{ withdrawn: true, paymentMethodId: null }]);
  await page.goto("/profile");
  await expect(page.getByRole("region", { name: "My commitments" })).toContainText("never charged");
});

test("an organizer moves a tipped, charged event; the backer is emailed and withdraws with a refund", async ({
  page,
}) => {
  const t = crypto.randomBytes(3).toString("hex");
  const organizer = await createUser({ name: `Orla ${t}` });
  const backer = await createUser({ name: `Bram ${t}` });
  const { id } = await createCampaign({
    creator: organizer,
    title: `Moving concert ${t}`,
    status: "charged",
    goal: 1,
    ticketPriceCents: 2200,
    deadline: new Date(Date.now() + 2 * 86400_000),
    startsAt: new Date(Date.now() + 12 * 86400_000),
    timeZone: "America/New_York",
    venue: "Old Hall",
  });
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "cardBrand", "cardLast4",
       charged, verified, "chargeStatus", "chargeType", "chargedAt", "paymentIntentId", "createdAt")
     VALUES ($1, $2, $3, $4, 2200, 'pm_demo_e2e', 'visa', '4242', true, true, 'succeeded', 'paid', now(), $5, now() - interval '1 day')`,
    [`pl${crypto.randomBytes(10).toString("hex")}`, id, backer.id, backer.name, `pi_demo_${t}`],
  );
  await sql().query(`UPDATE "Campaign" SET "committedCount" = 1, "pledgeCount" = 1 WHERE id = $1`, [id]);
  // the demo provider's record of that charge, which the refund gives back
  await sql().query(
    `INSERT INTO "DemoPaymentIntent" (id, "idempotencyKey", "paymentMethodId", "amountCents", status) VALUES ($1, $2, 'pm_demo_e2e', 2200, 'succeeded')`,
    [`pi_demo_${t}`, `e2e-${t}`],
  );

  // before the change the commitment is binding
  await loginAs(page, backer);
  await page.goto(`/campaign/${id}`);
  const mine = page.getByLabel("Your commitment");
  await expect(mine).toContainText("Charged $22.00");
  await expect(mine.getByRole("button", { name: "Withdraw" })).toHaveCount(0);

  await page.context().clearCookies();
  await loginAs(page, organizer);
  await page.goto(`/campaign/${id}/edit`);
  await page.getByLabel("Venue", { exact: true }).fill(`New Hall ${t}`);
  await page.getByRole("button", { name: "Save changes" }).click();
  await expect(page.getByRole("status")).toContainText("1 person who committed was emailed");
  const { rows: mail } = await sql().query(`SELECT text FROM "EmailOutbox" WHERE "dedupeKey" LIKE $1`, [
    `changed:${id}:%`,
  ]);
  expect(mail[0].text).toMatch(/you may withdraw until .+ and any charge is refunded in full/);

  await page.context().clearCookies();
  await loginAs(page, backer);
  await page.goto(`/campaign/${id}`);
  await expect(mine).toContainText("You may withdraw with a full refund until");
  await mine.getByRole("button", { name: "Withdraw" }).click();
  const dialog = page.getByRole("dialog", { name: "Withdraw your commitment?" });
  await expect(dialog).toContainText("your payment of $22.00 is refunded in full");
  await dialog.getByRole("button", { name: "Withdraw" }).click();
  await expect(page.getByRole("status").filter({ hasText: "$22.00 is being refunded" })).toBeVisible();
  const { rows } = await sql().query(
    `SELECT "chargeStatus"::text AS status, "refundId" IS NOT NULL AS refunded FROM "Pledge" WHERE "campaignId" = $1`,
    [id],
  );
  expect(rows).toEqual([{ status: "refunded", refunded: true }]);
  await page.goto("/profile");
  await expect(page.getByRole("region", { name: "My commitments" })).toContainText("Refunded $22.00");
});
