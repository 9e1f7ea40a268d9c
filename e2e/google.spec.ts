import crypto from "node:crypto";
import type { Page } from "@playwright/test";
import { expect, oidcIssuer, signUpWith, sql, test } from "./fixtures";

// "Continue with Google" against a real OpenID Connect issuer on loopback (the certified
// oidc-provider package, scripts/lib/local-oidc.mjs): the browser leaves the app, signs in at the
// issuer's login page, consents, and comes back through NextAuth's callback. An address whose
// local part starts with "unverified" comes back with email_verified: false.

const main = (page: Page) => page.getByRole("main");
const accountBar = (page: Page) => page.getByRole("navigation", { name: "Account" });
const tag = () => crypto.randomBytes(4).toString("hex");

/** From the sign-in card to the issuer's login page, signed in there as `email`; stops at consent. */
async function signInAtIssuer(page: Page, email: string) {
  await page.goto("/profile");
  await main(page).getByRole("button", { name: "Continue with Google" }).click();
  await page.waitForURL((url) => url.origin === oidcIssuer());
  await page.locator('input[name="login"]').fill(email);
  await page.locator('input[name="password"]').fill("any password: the issuer checks none");
  await page.getByRole("button", { name: "Sign-in" }).click();
  await expect(page.getByRole("button", { name: "Continue" })).toBeVisible();
}

/** Back on /profile with SPEC's failure text, signed out, and no account made for `email`. */
async function expectFailedSignIn(page: Page, email: string) {
  await expect(page).toHaveURL(/\/profile\?.*error=/);
  await expect(main(page).getByRole("alert")).toHaveText("Failed to sign in. Please try again.");
  await expect(accountBar(page)).toHaveCount(0);
  expect(await googleAccountOf(email)).toHaveLength(0);
}

async function googleAccountOf(email: string) {
  const { rows } = await sql().query(
    `SELECT u.id, u."passwordHash" IS NOT NULL AS "hasPassword", u."emailVerified" IS NOT NULL AS verified,
            a.provider, a."providerAccountId"
     FROM "User" u LEFT JOIN "Account" a ON a."userId" = u.id WHERE u.email = $1`,
    [email],
  );
  return rows;
}

test("a new Google user gets an account and lands signed in", async ({ page }) => {
  const email = `g-new-${tag()}@example.test`;
  await signInAtIssuer(page, email);
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();
  await expect(accountBar(page)).toContainText(email);
  const rows = await googleAccountOf(email);
  expect(rows).toHaveLength(1);
  expect(rows[0]).toMatchObject({ provider: "google", verified: true, hasPassword: false });
  expect(rows[0].providerAccountId).toMatch(/^local-[0-9a-f]{20}$/);

  // signed out and back in with Google, which remembers this browser: straight back, the same account
  await accountBar(page).getByRole("button", { name: "Logout" }).click();
  await expect(main(page).getByRole("heading", { name: "Sign In" })).toBeVisible();
  await main(page).getByRole("button", { name: "Continue with Google" }).click();
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();
  await expect(accountBar(page)).toContainText(email);
  expect(await googleAccountOf(email)).toHaveLength(1);
});

test("Google joins a password account with the same verified email; an unconfirmed one loses its password", async ({
  page,
}) => {
  // someone registered this address with a password and never confirmed it (the pre-hijack case)
  const email = `g-join-${tag()}@example.test`;
  await signUpWith(page, email, "pre-claimed-password-77");
  const [before] = await googleAccountOf(email);
  expect(before).toMatchObject({ provider: null, hasPassword: true, verified: false });
  await page.context().clearCookies();

  // the address's real owner signs in with Google
  await signInAtIssuer(page, email);
  await page.getByRole("button", { name: "Continue" }).click();
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();
  await expect(accountBar(page)).toContainText(email);
  const [after] = await googleAccountOf(email);
  expect(after).toMatchObject({ id: before.id, provider: "google", verified: true, hasPassword: false });

  // the password set before the address was proven no longer opens the account
  await accountBar(page).getByRole("button", { name: "Logout" }).click();
  await main(page).getByLabel("Email").fill(email);
  await main(page).getByLabel("Password", { exact: true }).fill("pre-claimed-password-77");
  await main(page).getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(main(page).getByRole("alert")).toHaveText(
    "This account signs in with Google. Use Continue with Google.",
  );
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toHaveCount(0);
});

test("an unverified Google email is refused with a clear message and creates nothing", async ({ page }) => {
  const email = `unverified-${tag()}@example.test`;
  await signInAtIssuer(page, email);
  await page.getByRole("button", { name: "Continue" }).click();

  await expect(page).toHaveURL(/\/profile\?.*error=GoogleEmailUnverified/);
  await expect(main(page).getByRole("alert")).toHaveText(
    "Your Google email address is not verified, so it cannot be used to sign in here.",
  );
  await expect(main(page).getByRole("heading", { name: "Sign In" })).toBeVisible();
  await expect(accountBar(page)).toHaveCount(0);
  expect(await googleAccountOf(email)).toHaveLength(0);
});

test("a cancelled consent and a provider error come back to /profile with SPEC's failure text", async ({
  page,
  request,
}) => {
  // cancelled at the consent screen: the issuer answers access_denied
  const cancelled = `g-cancel-${tag()}@example.test`;
  await signInAtIssuer(page, cancelled);
  await page.getByRole("link", { name: "[ Cancel ]" }).click();
  await expectFailedSignIn(page, cancelled);

  // the provider fails when the app exchanges the code for tokens (a new browser session at the issuer)
  await page.context().clearCookies();
  const failed = `g-error-${tag()}@example.test`;
  expect((await request.post(`${oidcIssuer()}/test/fail-next-token`)).status()).toBe(204);
  await signInAtIssuer(page, failed);
  await page.getByRole("button", { name: "Continue" }).click();
  await expectFailedSignIn(page, failed);

  // and the next attempt works (the issuer remembers the sign-in and the consent)
  await page.goto("/profile");
  await main(page).getByRole("button", { name: "Continue with Google" }).click();
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();
  await expect(accountBar(page)).toContainText(failed);
});
