import { chromium } from "playwright";
const base = "http://localhost:3000";
const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
const settle = async (page) => { await page.waitForLoadState("networkidle"); await page.waitForTimeout(900); };
async function signIn(page, email) {
  await page.goto(base + "/profile");
  await page.getByLabel("Email").first().fill(email);
  await page.getByLabel("Password", { exact: true }).first().fill("pactnexus-demo");
  await page.getByRole("button", { name: /^Sign in$/i }).first().click();
  await page.waitForTimeout(2000);
}
const who = process.argv[2];
const eventPath = process.argv[3];
for (const [w, h] of [[375, 812], [1440, 900]]) {
  const ctx = await browser.newContext({ viewport: { width: w, height: h }, timezoneId: "Asia/Tokyo" });
  const page = await ctx.newPage();
  await signIn(page, who);
  await page.goto(base + eventPath);
  await settle(page);
  await page.getByLabel("Your commitment").scrollIntoViewIfNeeded().catch(() => {});
  await page.screenshot({ path: `/tmp/shots/yourein-${w}.png` });
  if (w === 1440) {
    await page.getByRole("button", { name: "Withdraw" }).click().catch(() => {});
    await page.waitForTimeout(500);
    await page.screenshot({ path: `/tmp/shots/withdraw-dialog-${w}.png` });
    await page.keyboard.press("Escape");
  }
  await page.goto(base + "/profile");
  await settle(page);
  await page.screenshot({ path: `/tmp/shots/mine-${w}.png`, fullPage: true });
  await ctx.close();
}
await browser.close();
