import crypto from "node:crypto";
import { createCampaign, createUser, expect, loginAs, signUpWith, sql, test } from "./fixtures";

/* Issue 18 items 4 and 5: sign-in that brings you back, password reset and change. */

const main = (page: import("@playwright/test").Page) => page.getByRole("main");

test("commit from a signed-out prompt → sign up → back on the event with the commit dialog open", async ({
  page,
}) => {
  const t = crypto.randomBytes(3).toString("hex");
  const event = await createCampaign({ title: `Return picnic ${t}`, goal: 5 });
  await page.goto(`/campaign/${event.id}`);
  await page.getByRole("button", { name: "Commit", exact: true }).click();
  await page.getByRole("alert").getByRole("link", { name: "Sign in" }).click();
  await expect(page).toHaveURL(/\/profile\?next=/);
  await page.getByRole("button", { name: "Need an account? Sign Up" }).click();
  await expect(page.getByText("At least 6 characters")).toBeVisible(); // the rule before submitting
  await page.getByLabel("Email").fill(`return-${t}@example.test`);
  await page.getByLabel("Password", { exact: true }).fill("violet-harbour-42");
  await page.getByRole("button", { name: "Show password" }).click();
  await expect(page.getByLabel("Password", { exact: true })).toHaveAttribute("type", "text");
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();

  await expect(page).toHaveURL(new RegExp(`/campaign/${event.id}$`));
  await expect(page.getByRole("dialog", { name: "Confirm Your Commitment" })).toBeVisible();
});

test("a failed payment's pay link opened signed out → sign in → the pay page", async ({ page }) => {
  const t = crypto.randomBytes(3).toString("hex");
  const email = `payer-${t}@example.test`;
  // an account with a password, made through sign-up
  await signUpWith(page, email, "violet-harbour-42");
  const { rows } = await sql().query(`SELECT id FROM "User" WHERE email = $1`, [email]);
  const event = await createCampaign({
    title: `Declined ${t}`,
    goal: 1,
    ticketPriceCents: 2000,
    status: "charged",
  });
  const pledgeId = `p${crypto.randomBytes(8).toString("hex")}`;
  await sql().query(
    `INSERT INTO "Pledge" (id, "campaignId", "userId", contributor, "amountCents", "paymentMethodId", "cardBrand", "cardLast4",
       "chargeStatus", "chargeAttempts", "chargeFailureCode", "chargeFailureMessage")
     VALUES ($1,$2,$3,'Payer',2000,'pm_demo_gone','visa','0341','failed',1,'card_declined','Your card was declined.')`,
    [pledgeId, event.id, rows[0].id],
  );
  await page.context().clearCookies();

  await page.goto(`/pledges/${pledgeId}/pay`);
  await expect(page).toHaveURL(/\/profile\?next=/);
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("violet-harbour-42");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`/pledges/${pledgeId}/pay$`));
  await expect(page.getByRole("heading", { name: "Complete your payment" })).toBeVisible();
});

test("a visitor's Create is sent home with a reason; a missing event says it was not found", async ({
  page,
}) => {
  await page.goto("/create-campaign");
  await expect(page.getByRole("alert").filter({ hasText: "Sign in to create an event." })).toBeVisible();
  // issue 31: a 404 with SPEC's "Campaign not found" and "Back to Home", decided before anything streams
  const res = await page.goto("/campaign/cdoesnotexist0000000000000");
  expect(res?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Campaign not found" })).toBeVisible();
  await page.getByRole("link", { name: "Back to Home" }).click();
  await expect(page).toHaveURL(/\/$/);
});

test("an unknown, malformed, pending or rejected event answers 404 to whoever may not see it (issue 31)", async ({
  page,
  playwright,
  baseURL,
}) => {
  const organizer = await createUser({ name: "Gate Organizer" });
  const stranger = await createUser({ name: "Gate Stranger" });
  const pending = await createCampaign({ creator: organizer, approvalStatus: "pending" });
  const rejected = await createCampaign({ creator: organizer, approvalStatus: "rejected" });
  const visitor = await playwright.request.newContext({ baseURL });
  for (const path of [
    "/campaign/cdoesnotexist0000000000000",
    "/campaign/x'%3B%20drop",
    "/campaign/cdoesnotexist0000000000000?commit=1",
  ]) {
    const res = await visitor.get(path, { maxRedirects: 0 });
    expect(res.status(), path).toBe(404);
    expect(await res.text(), path).toContain("Campaign not found");
  }
  for (const c of [pending, rejected]) {
    const res = await visitor.get(`/campaign/${c.id}`, { maxRedirects: 0 });
    expect(res.status()).toBe(404);
    expect(await res.text()).not.toContain(c.title);
  }
  await loginAs(page, stranger);
  for (const c of [pending, rejected]) {
    const res = await page.request.get(`/campaign/${c.id}`, { maxRedirects: 0 });
    expect(res.status()).toBe(404);
    expect(await res.text()).not.toContain(c.title);
  }
  await loginAs(page, organizer);
  const own = await page.goto(`/campaign/${pending.id}`);
  expect(own?.status()).toBe(200);
  await expect(page.getByRole("heading", { name: pending.title })).toBeVisible();
  await visitor.dispose();
});

test("forgot password: the emailed link sets a new password, the old one stops working; a change of password ends other sessions", async ({
  page,
  browser,
}) => {
  const t = crypto.randomBytes(3).toString("hex");
  const email = `forgetful-${t}@example.test`;
  await signUpWith(page, email, "violet-harbour-42");
  await page.context().clearCookies();

  await page.goto("/profile");
  await page.getByRole("link", { name: "Forgot password?" }).click();
  // Typed before the form hydrated, the address can be reset to empty ("Email is required", nothing
  // sent: seen once in CI under load); then it is typed again.
  await expect(async () => {
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Send reset link" }).click();
    await expect(page.getByRole("status")).toContainText("If an account exists for that address", {
      timeout: 3_000,
    });
  }).toPass({ timeout: 20_000 });
  // the email is written after the answer (issue 31: the same timing for every address): wait for it
  const resetMails = async () =>
    (
      await sql().query(
        `SELECT text FROM "EmailOutbox" WHERE "toEmail" = $1 AND "dedupeKey" LIKE 'reset-password:%' ORDER BY "createdAt" DESC`,
        [email],
      )
    ).rows as { text: string }[];
  await expect.poll(async () => (await resetMails()).length, { timeout: 10_000 }).toBeGreaterThan(0);
  const rows = await resetMails();
  const link = /(\/reset-password\?token=[A-Za-z0-9_-]+)/.exec(rows[0].text)![1];
  await page.goto(link);
  await page.getByLabel("New password").fill("new-lighthouse-22");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByRole("status")).toContainText("Your password is changed");
  await page.goto(link); // single use
  await expect(page.getByText("This reset link is not valid or has expired.")).toBeVisible();

  await page.goto("/profile");
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password", { exact: true }).fill("violet-harbour-42");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(page.getByText("Incorrect password")).toBeVisible();
  await page.getByLabel("Password", { exact: true }).fill("new-lighthouse-22");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();

  // a second device signed in with the same session, then a password change here
  const other = await browser.newContext();
  await other.addCookies(await page.context().cookies());
  const otherPage = await other.newPage();
  await otherPage.goto("/profile");
  await expect(otherPage.getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();

  await page.getByRole("button", { name: "Change password" }).click();
  await page.getByLabel("Current password").fill("new-lighthouse-22");
  await page.getByLabel("New password").fill("third-harbour-33");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByRole("status").filter({ hasText: "Other devices are signed out" })).toBeVisible();
  await page.reload();
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible(); // this one re-issued

  await otherPage.reload();
  await expect(otherPage.getByRole("heading", { name: "Sign In" })).toBeVisible(); // the old session stopped
  await other.close();
});

/** Issue 31 item 1: values that normalise to another host, as a browser would send them in ?next=. */
const OFFSITE_NEXT = [
  "/.//evil.com",
  "/a/..//evil.com",
  "/%2e//evil.com",
  "/\\evil.com",
  "/%5cevil.com",
  "/\t/evil.com",
  "/\n/evil.com",
  "/%09/evil.com",
  "javascript:alert(1)",
  "https://evil.com/",
  "//evil.com",
];

test("no ?next= value sends a signed-in person or a visitor's sign-in to another host", async ({
  page,
  playwright,
  baseURL,
}) => {
  const user = await createUser({ name: "Return Prober" });
  await loginAs(page, user);
  const signedIn = page.request;
  const visitor = await playwright.request.newContext({ baseURL });
  for (const next of OFFSITE_NEXT) {
    const url = `/profile?next=${encodeURIComponent(next)}`;
    // signed in: the server would redirect straight on; it must not leave the site
    const res = await signedIn.get(url, { maxRedirects: 0 });
    const location = res.headers()["location"];
    if (location)
      expect(new URL(location, baseURL).host, `${next} → ${location}`).toBe(new URL(baseURL!).host);
    const body = await res.text();
    // a server-side redirect is spelled in the RSC payload: none may name another host
    expect(body, next).not.toMatch(/NEXT_REDIRECT;[a-z]+;(?:\/\/|[a-z]+:)/i);
    // a visitor: the sign-in card's returnTo is null or a path on this site
    const asVisitor = await visitor.get(url, { maxRedirects: 0 });
    expect(asVisitor.status(), next).toBe(200);
    const html = await asVisitor.text();
    for (const m of html.matchAll(/\\?"returnTo\\?":\\?"([^"\\]*)/g))
      expect(m[1], next).toMatch(/^\/(?![/\\])/);
  }
  await visitor.dispose();
});
