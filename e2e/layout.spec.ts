import crypto from "node:crypto";
import { createCampaign, expect, test } from "./fixtures";

/*
 * Issue 17 item 3: user text never widens the page. One 180-character word in one description
 * once made the whole home grid 1,852 px wide at 375 px.
 */
test("a 200-character word leaves the home page and the event page at 375 px without horizontal scroll", async ({
  page,
}) => {
  const word = `Supercalifragilistic${crypto.randomBytes(90).toString("hex")}`.slice(0, 200);
  const { id } = await createCampaign({
    title: `W${word.slice(0, 99)}`,
    description: `An event whose description holds one very long word: ${word} and then some more text.`,
  });
  await page.setViewportSize({ width: 375, height: 812 });
  for (const url of ["/", `/campaign/${id}`]) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    const widths = await page.evaluate(() => ({
      scroll: document.documentElement.scrollWidth,
      client: document.documentElement.clientWidth,
    }));
    expect(widths.scroll, `${url} is ${widths.scroll} px wide`).toBeLessThanOrEqual(widths.client);
  }
  // the long word is on the page (it wrapped, it was not cut)
  await expect(page.getByRole("heading", { level: 1 })).toContainText(word.slice(0, 40));
});

test("the filter chips keep the scroll position at 1440 px", async ({ page }) => {
  // enough collecting events that both lists are longer than the window
  for (let i = 0; i < 9; i++)
    await createCampaign({ title: `Scroll keeper ${i} ${crypto.randomBytes(3).toString("hex")}` });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto("/");
  await page.waitForLoadState("networkidle");
  const filters = page.getByRole("navigation", { name: "Filter events" });
  // an instant scroll (a wheel scroll is smooth: it may still be moving when the position is read)
  await page.evaluate(() => window.scrollTo({ top: 400, behavior: "instant" }));
  await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(400);
  await filters.getByRole("link", { name: "Active" }).click();
  await expect(page).toHaveURL(/filter=active/);
  await expect(filters.getByRole("link", { name: "Active" })).toHaveAttribute("aria-current", "page");
  // where it was, or as far down as the new (possibly shorter) list allows — not back at the top
  await expect
    .poll(async () => {
      const { y, max } = await page.evaluate(() => ({
        y: window.scrollY,
        max: document.documentElement.scrollHeight - window.innerHeight,
      }));
      return Math.abs(y - Math.min(400, max));
    })
    .toBeLessThan(50);
  // and it stays there once everything has loaded
  await page.waitForLoadState("networkidle");
  expect(await page.evaluate(() => window.scrollY)).toBeGreaterThan(300);
});
