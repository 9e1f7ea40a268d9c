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
