import crypto from "node:crypto";
import { expect, signUpWith, sql, test } from "./fixtures";

/*
 * Issue 31 item 3: the emailed confirmation link hands the account to whoever reads the inbox. The
 * person confirming chooses the password; every earlier session ends (ADMIN_EMAILS, which the e2e
 * server does not set, is covered in tests/auth/confirm-email.test.ts).
 */

const main = (page: import("@playwright/test").Page) => page.getByRole("main");

test("someone signed up with another person's address: the owner confirms by choosing the password, the other session ends and the old password stops working", async ({
  page,
  browser,
}) => {
  const t = crypto.randomBytes(3).toString("hex");
  const email = `inbox-owner-${t}@example.test`;
  // the squatter signs up with the owner's address and stays signed in
  await signUpWith(page, email, "squatter-pass-71");
  await expect(page.getByRole("region", { name: "Email confirmation" })).toBeVisible();

  // the owner opens the link from the email in their own browser
  const { rows } = await sql().query<{ text: string }>(
    `SELECT text FROM "EmailOutbox" WHERE "toEmail" = $1 AND "dedupeKey" LIKE 'confirm-email:%'`,
    [email],
  );
  const link = /(\/verify-email\?token=[A-Za-z0-9_-]+)/.exec(rows[0].text)![1];
  const ownerContext = await browser.newContext();
  const owner = await ownerContext.newPage();
  await owner.goto(link);
  await expect(owner.getByRole("heading", { name: "Confirm your email" })).toBeVisible();
  await expect(owner.getByLabel("Email")).toHaveValue(email);
  // typed only once the form has hydrated (Show reveals the password then), so nothing typed is reset
  const newPassword = owner.getByLabel("New password", { exact: true });
  await expect(async () => {
    await owner.getByRole("button", { name: "Show password" }).first().click();
    await expect(newPassword).toHaveAttribute("type", "text", { timeout: 2_000 });
  }).toPass({ timeout: 20_000 });
  await newPassword.fill("owners-own-pass-82");
  await owner.getByLabel("Confirm new password").fill("owners-own-pass-83");
  await owner.getByRole("button", { name: "Confirm my email" }).click();
  await expect(owner.getByText("The passwords do not match.")).toBeVisible();
  await owner.getByLabel("Confirm new password").fill("owners-own-pass-82");
  await owner.getByRole("button", { name: "Confirm my email" }).click();
  await expect(owner.getByRole("status").filter({ hasText: "Your email address is confirmed" })).toHaveText(
    "Your email address is confirmed, and you are signed in with your new password.",
  );
  await owner.getByRole("link", { name: "Go to your profile" }).click();
  await expect(main(owner).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();
  await expect(owner.getByRole("region", { name: "Email confirmation" })).toHaveCount(0);

  // the link worked once
  await owner.goto(link);
  await expect(owner.getByText("This confirmation link is not valid or has expired.")).toBeVisible();

  // the squatter's session has ended, and their password no longer opens the account
  await page.reload();
  await expect(page.getByRole("heading", { name: "Sign In" })).toBeVisible(); // the session stopped
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("squatter-pass-71");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Incorrect password")).toBeVisible();
  await ownerContext.close();
});
