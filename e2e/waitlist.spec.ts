import crypto from "node:crypto";
import { createCampaign, createUser, expect, fillCard, loginAs, sql, test } from "./fixtures";

/* Issue 20: capacity with a paid waitlist that charges on promotion. */

test("a backer joins the waitlist of a full event, sees position 1, is promoted when a place is given up and finds the charge under My commitments", async ({
  browser,
  page,
}) => {
  test.setTimeout(120_000);
  const t = crypto.randomBytes(3).toString("hex");
  const organizer = await createUser({ name: `Oren ${t}` });
  const holder = await createUser({ name: `Hal ${t}` });
  const waiter = await createUser({ name: `Wren ${t}` });
  const { id } = await createCampaign({
    creator: organizer,
    title: `Tiny supper club ${t}`,
    status: "charged",
    goal: 1,
    ticketPriceCents: 1200,
    deadline: new Date(Date.now() + 2 * 86400_000),
    startsAt: new Date(Date.now() + 5 * 86400_000),
    timeZone: "America/New_York",
    venue: "The back room",
  });
  // one place, taken and paid for
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "cardBrand", "cardLast4",
       charged, verified, "chargeStatus", "chargeType", "chargedAt", "paymentIntentId", "createdAt")
     VALUES ($1, $2, $3, $4, 1200, 'pm_demo_e2e', 'visa', '4242', true, true, 'succeeded', 'paid', now(), $5, now() - interval '1 day')`,
    [`pl${t}hold`, id, holder.id, holder.name, `pi_demo_e2e_${t}`],
  );
  await sql().query(
    `UPDATE "Campaign" SET capacity = 1, "committedCount" = 1, "pledgeCount" = 1, "totalCharged" = 1,
       "totalChargedCents" = 1200, "chargeType" = 'paid', "fundedAt" = now(), "chargedAt" = now() WHERE id = $1`,
    [id],
  );

  // The waiter finds the event full and joins the waitlist, told what they consent to.
  await loginAs(page, waiter);
  await page.goto(`/campaign/${id}`);
  await expect(page.getByText("This event is full: all 1 places are taken.").first()).toBeVisible();
  await page.getByRole("button", { name: "Join the waitlist" }).first().click();
  const confirm = page.getByRole("dialog", { name: "Join the Waitlist" });
  await expect(confirm).toContainText("You'll be #1 on the waitlist.");
  await expect(confirm).toContainText(
    "If a place opens before the event starts, your saved card is charged $12.00 automatically",
  );
  await confirm.getByRole("button", { name: "Join the waitlist" }).click();
  await fillCard(page, "4242 4242 4242 4242");
  const result = page.getByRole("dialog", { name: "You're on the Waitlist" });
  await expect(result).toContainText("You're #1 in line");
  await result.getByRole("button", { name: "Close", exact: true }).last().click();

  const line = page.getByLabel("Your commitment");
  await expect(line).toContainText("Your place in line");
  await expect(line.getByLabel("Position 1")).toBeVisible();
  await expect(line.getByRole("button", { name: "Leave the waitlist" })).toBeVisible();
  await page.goto("/profile");
  await expect(page.getByRole("region", { name: "My commitments" })).toContainText(
    "On the waitlist — #1 in line",
  );

  // The holder can't make it and gives the place up.
  const other = await browser.newContext();
  const holderPage = await other.newPage();
  await loginAs(holderPage, holder);
  await holderPage.goto(`/campaign/${id}`);
  const mine = holderPage.getByLabel("Your commitment");
  await mine.getByRole("button", { name: "Give up my place" }).click();
  const dialog = holderPage.getByRole("dialog", { name: "Give up your place?" });
  await expect(dialog).toContainText("refunded in full as soon as they have paid");
  await dialog.getByRole("button", { name: "Give up my place" }).click();
  await expect(holderPage.getByRole("status").filter({ hasText: "You gave up your place." })).toBeVisible();
  await other.close();

  // The waiter was promoted and charged once, off-session, by the charging job.
  await expect
    .poll(
      async () =>
        (
          await sql().query(
            `SELECT "chargeStatus" FROM "Pledge" WHERE "campaignId" = $1 AND "userId" = $2 AND "withdrawnAt" IS NULL`,
            [id, waiter.id],
          )
        ).rows[0]?.chargeStatus,
      { timeout: 60_000 },
    )
    .toBe("succeeded");
  await page.goto("/profile");
  const section = page.getByRole("region", { name: "My commitments" });
  await expect(section).toContainText(`Tiny supper club ${t}`);
  await expect(section).toContainText("Charged $12.00 on");
  await expect(section).toContainText("a place opened for you on the waitlist");
  const { rows } = await sql().query(
    `SELECT subject FROM "EmailOutbox" WHERE "toEmail" = $1 ORDER BY "createdAt"`,
    [waiter.email],
  );
  expect(rows.map((r: { subject: string }) => r.subject)).toEqual(
    expect.arrayContaining([
      `You're on the waitlist for "Tiny supper club ${t}"`,
      `A place opened: you're in for "Tiny supper club ${t}"`,
    ]),
  );
});
