import crypto from "node:crypto";
import { createCampaign, createUser, expect, loginAs, test } from "./fixtures";

const main = (page: import("@playwright/test").Page) => page.getByRole("main");
const accountBar = (page: import("@playwright/test").Page) =>
  page.getByRole("navigation", { name: "Account" });

test("sign up → dashboard → logout → sign in → wrong password", async ({ page }) => {
  const id = crypto.randomBytes(4).toString("hex");
  const email = `new-${id}@example.test`;
  const password = "violet-harbour-42";

  await page.goto("/profile");
  await expect(main(page).getByRole("heading", { name: "Sign In" })).toBeVisible();
  await expect(accountBar(page)).toHaveCount(0);
  // Google is configured in the e2e environment (a local OpenID issuer, e2e/google.spec.ts)
  await expect(page.getByRole("button", { name: "Continue with Google" })).toBeVisible();

  // sign up (the form validates with the server's schema first)
  await page.getByRole("button", { name: "Need an account? Sign Up" }).click();
  await expect(main(page).getByRole("heading", { name: "Sign Up" })).toBeVisible();
  await page.getByLabel("Display name (optional)").fill("Nova Tester");
  await page.getByLabel("Email").fill(`  New-${id}@Example.TEST `);
  await page.getByLabel("Password").fill("password");
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page.getByText("Password is too weak")).toBeVisible();

  await page.getByLabel("Password").fill(password);
  // hold the sign-in request a moment so the busy state can be seen
  await page.route("**/api/auth/callback/credentials**", async (route) => {
    await new Promise((r) => setTimeout(r, 700));
    await route.continue();
  });
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page.getByRole("button", { name: "Please wait..." })).toBeDisabled();

  // signed in: the dashboard and the top bar
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();
  await expect(main(page).getByText("Nova Tester")).toBeVisible();
  await expect(main(page).getByText(email)).toBeVisible();
  await expect(main(page).getByText("N", { exact: true })).toBeVisible(); // avatar initial
  await expect(main(page).getByRole("heading", { name: "Your Active Pacts" })).toBeVisible();
  await expect(main(page).getByText("You haven't created any pacts yet")).toBeVisible();
  await expect(main(page).getByRole("link", { name: "Create Your First Pact" })).toHaveAttribute(
    "href",
    "/create-campaign",
  );
  await expect(main(page).getByRole("link", { name: "Create New Pact" })).toHaveAttribute(
    "href",
    "/create-campaign",
  );
  await expect(accountBar(page)).toContainText(email);
  await expect(accountBar(page).getByRole("link", { name: "Profile" })).toHaveAttribute("href", "/profile");
  await expect(accountBar(page).getByRole("link", { name: "Admin" })).toHaveCount(0);

  // the session survives a reload (it is a cookie, not client state)
  await page.reload();
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();

  // logout
  await main(page).getByRole("button", { name: "Logout" }).click();
  await expect(main(page).getByRole("heading", { name: "Sign In" })).toBeVisible();
  await expect(accountBar(page)).toHaveCount(0);

  // sign in again, the email typed in another case
  await page.getByLabel("Email").fill(email.toUpperCase());
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();

  // logout from the top bar, then a wrong password and an unknown email
  await accountBar(page).getByRole("button", { name: "Logout" }).click();
  await expect(main(page).getByRole("heading", { name: "Sign In" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not-my-password");
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(main(page).getByRole("alert")).toHaveText("Incorrect password");
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toHaveCount(0);

  await page.getByLabel("Email").fill(`nobody-${id}@example.test`);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(main(page).getByRole("alert")).toHaveText("No account found with this email");

  // the same email cannot sign up twice
  await page.getByRole("button", { name: "Need an account? Sign Up" }).click();
  await page.getByLabel("Email").fill(email.toUpperCase());
  await page.getByLabel("Password").fill("another-good-secret");
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(page.getByText("Email already in use")).toBeVisible();
  await page.getByRole("button", { name: "Already have an account? Sign In" }).click();
  await expect(main(page).getByRole("heading", { name: "Sign In" })).toBeVisible();
});

test("the dashboard lists the user's pacts newest first; admins get the Admin link", async ({ page }) => {
  const organizer = await createUser({ name: null, isAdmin: true });
  const older = await createCampaign({
    creator: organizer,
    title: "Older rooftop concert",
    goal: 40,
    ticketPriceCents: 1250,
  });
  const newer = await createCampaign({
    creator: organizer,
    title: "Newer pending workshop",
    approvalStatus: "pending",
  });
  await createCampaign({ title: "Someone else's picnic" });

  await loginAs(page, organizer);
  await page.goto("/profile");
  await expect(main(page).getByText("User", { exact: true })).toBeVisible(); // no display name
  await expect(accountBar(page).getByRole("link", { name: "Admin" })).toHaveAttribute("href", "/admin");

  const cards = main(page).getByRole("listitem");
  await expect(cards).toHaveCount(2);
  await expect(cards.nth(0)).toContainText("Newer pending workshop");
  await expect(cards.nth(0)).toContainText("PENDING");
  const concert = cards.nth(1);
  await expect(concert).toContainText("Older rooftop concert");
  await expect(concert).toContainText("Active");
  await expect(concert).toContainText("$500.00"); // goal: 40 × $12.50
  await expect(concert).toContainText("$0.00"); // raised
  await expect(concert).toContainText("Deadline");
  await expect(main(page).getByText("Someone else's picnic")).toHaveCount(0);

  await concert.getByRole("link").click();
  await expect(page).toHaveURL(new RegExp(`/campaign/${older.id}$`));
  expect(newer.id).not.toBe(older.id);
});

test("signing out ends the session everywhere: a copy of the cookie taken before is signed out too", async ({
  page,
  browser,
}) => {
  const id = crypto.randomBytes(4).toString("hex");
  const email = `copy-${id}@example.test`;
  const password = "amber-lantern-73";
  const event = await createCampaign({ title: `Copied cookie ${id}` });
  await page.goto("/profile");
  await page.getByRole("button", { name: "Need an account? Sign Up" }).click();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign Up", exact: true }).click();
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();

  // someone copies the session cookie (another device, a stolen copy)
  const cookies = (await page.context().cookies()).filter((c) => c.name.includes("session-token"));
  expect(cookies.length).toBeGreaterThan(0);
  const copy = await browser.newContext();
  await copy.addCookies(cookies);
  const other = await copy.newPage();
  await other.goto("/profile");
  await expect(main(other).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();

  await main(page).getByRole("button", { name: "Logout" }).click();
  await expect(main(page).getByRole("heading", { name: "Sign In" })).toBeVisible();

  // the copy is signed out: pages, the session endpoint, the cached member copies and actions
  await other.goto("/profile");
  await expect(main(other).getByRole("heading", { name: "Sign In" })).toBeVisible();
  expect((await (await copy.request.get("/api/auth/session")).json()).user).toBeUndefined();
  const home = await copy.request.get("/");
  expect(await home.text()).toContain("Sign In");
  await other.goto(`/campaign/${event.id}`);
  await other.getByRole("button", { name: "Commit", exact: true }).click();
  await expect(other.getByRole("region", { name: "Commit" }).getByRole("alert")).toContainText(
    "Please sign in to commit to this event",
  );
  await expect(other.getByRole("navigation", { name: "Account" })).toHaveCount(0);
  await copy.close();

  // signing in again works (a new session at the new version)
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign In", exact: true }).click();
  await expect(main(page).getByRole("heading", { name: "Profile Dashboard" })).toBeVisible();
  await page.goto(`/campaign/${event.id}`);
  await expect(accountBar(page)).toContainText(email);
});
