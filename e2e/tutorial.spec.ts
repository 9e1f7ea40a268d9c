import { expect, test } from "./fixtures";

const STEPS = [
  "Welcome",
  "What's a Pact",
  "Pactfund the Infrastructure",
  "Refund Bonus Magic",
  "Coordinate the Move",
  "Stake Your Commitment",
  "Watch the Cascade",
  "Your Complete Pact",
];

test("the tutorial walks through eight steps with a working calculator and cascade", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Learn How Pactions Work" }).click();
  const dialog = page.getByRole("dialog");
  await expect(dialog).toBeVisible();
  await expect(dialog).toContainText("play money");
  const progress = dialog.getByRole("progressbar", { name: "Tutorial progress" });

  for (let i = 0; i < STEPS.length; i++) {
    await expect(dialog.getByRole("heading", { name: STEPS[i] })).toBeVisible();
    await expect(progress).toHaveAttribute("aria-valuenow", String(i + 1));
    if (i === 2) {
      await dialog.getByLabel("Your pledge").fill("2500");
    }
    if (i === 3) {
      await expect(dialog).toContainText("$250"); // 10% bonus
      await expect(dialog).toContainText("$2,750"); // 110% back
    }
    if (i === 6) {
      await expect(dialog.getByTestId("cascade-count")).toHaveText("12,453", { timeout: 8000 });
    }
    if (i < STEPS.length - 1) await dialog.getByRole("button", { name: "Next" }).click();
  }
  await dialog.getByRole("button", { name: "Back" }).click();
  await expect(dialog.getByRole("heading", { name: STEPS[6] })).toBeVisible();
  await dialog.getByRole("button", { name: "Next" }).click();
  await dialog.getByRole("button", { name: "Complete" }).click();
  await expect(dialog).toHaveCount(0);
});

test("the tutorial closes on Escape, outside click and the close button, and keeps focus inside", async ({
  page,
}) => {
  await page.goto("/");
  const open = page.getByRole("button", { name: "Learn How Pactions Work" });
  await open.click();
  const dialog = page.getByRole("dialog");
  for (let i = 0; i < 6; i++) await page.keyboard.press("Tab");
  expect(await dialog.evaluate((el) => el.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  await expect(dialog).toHaveCount(0);

  await open.click();
  await page.mouse.click(5, 5);
  await expect(dialog).toHaveCount(0);

  await open.click();
  await dialog.getByRole("button", { name: "Close" }).click();
  await expect(dialog).toHaveCount(0);
});

test("an empty pledge falls back to $1,000 (110% = $1,100)", async ({ page }) => {
  await page.goto("/");
  await page.getByRole("button", { name: "Learn How Pactions Work" }).click();
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Next" }).click();
  await dialog.getByRole("button", { name: "Next" }).click();
  await dialog.getByLabel("Your pledge").fill("");
  await dialog.getByRole("button", { name: "Next" }).click();
  await expect(dialog).toContainText("$1,100");
});
