import zlib from "node:zlib";
import { createCampaign, createUser, expect, fillCard, loginAs, sql, test } from "./fixtures";

/**
 * A card on file (issue 37 item 2): the first paid commitment saves the card when the box is ticked;
 * a second paid event commits in one tap with it ("Pay with Visa ·4242"), no card sheet; the profile
 * lists it, and removing it while it backs commitments asks for another card and moves them.
 */
const SHOTS = process.env.CARD_SHOTS; // a folder: screenshots of the dialog, the sheet and the profile

async function cardsOf(userId: string) {
  const { rows } = await sql().query(
    `SELECT "paymentMethodId", last4, "isDefault" FROM "SavedCard" WHERE "userId" = $1 ORDER BY "createdAt"`,
    [userId],
  );
  return rows as { paymentMethodId: string; last4: string; isDefault: boolean }[];
}
async function pledgeCards(userId: string) {
  const { rows } = await sql().query(
    `SELECT "paymentMethodId", "cardLast4" FROM "Pledge" WHERE "userId" = $1 ORDER BY "createdAt"`,
    [userId],
  );
  return rows as { paymentMethodId: string; cardLast4: string }[];
}

/** The event page's first-load JS, gzipped, measured as scripts/bench does. */
async function firstLoadKb(page: import("@playwright/test").Page, path: string) {
  const html = await (await page.request.get(path)).text();
  const srcs = [
    ...new Set(
      [...html.matchAll(/<script\b[^>]*>/gi)]
        .map((m) => m[0])
        .filter((tag) => !/\snomodule\b/i.test(tag))
        .map((tag) => tag.match(/\ssrc="([^"]+)"/)?.[1])
        .filter(Boolean) as string[],
    ),
  ];
  let gz = 0;
  for (const src of srcs)
    gz += zlib.gzipSync(await (await page.request.get(src)).body(), { level: 9 }).length;
  return gz / 1024;
}

for (const viewport of [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
]) {
  test.describe(`a card on file at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("the box saves the card; the second paid event commits in one tap; the profile lists it and removes it", async ({
      page,
    }) => {
      const first = await createCampaign({
        title: `Saved card supper ${viewport.width}`,
        goal: 5,
        ticketPriceCents: 1200,
      });
      const second = await createCampaign({
        title: `One tap tasting ${viewport.width}`,
        goal: 5,
        ticketPriceCents: 900,
      });
      const me = await createUser({ name: "Card Keeper" });
      await loginAs(page, me);

      // the first paid commitment: the box is offered, unticked; ticked, the card is kept
      await page.goto(`/campaign/${first.id}`);
      await page.getByRole("button", { name: "Commit", exact: true }).click();
      const confirm = page.getByRole("dialog", { name: "Confirm Your Commitment" });
      await expect(confirm).toBeVisible();
      await expect(confirm.getByTestId("commit-saved-card")).toHaveCount(0);
      await confirm.getByRole("button", { name: "Yes, I'm In!" }).click();
      const sheet = page.getByRole("dialog", { name: "Save Payment Method" });
      await expect(sheet).toContainText("Apple Pay and Google Pay are not offered in demo mode");
      const box = sheet.getByRole("checkbox", { name: "Save this card for next time" });
      await expect(box).not.toBeChecked();
      await box.check();
      if (SHOTS) await sheet.screenshot({ path: `${SHOTS}/card-sheet-${viewport.width}.png` });
      await fillCard(page, "4242 4242 4242 4242");
      const result = page.getByRole("dialog", { name: "You're Committed!" });
      await expect(result).toBeVisible();
      await result.getByRole("button", { name: "Close", exact: true }).last().click();
      await expect.poll(async () => (await cardsOf(me.id)).length).toBe(1);

      // the second paid event: one tap with the saved card, no card sheet
      await page.goto(`/campaign/${second.id}`);
      await page.getByRole("button", { name: "Commit", exact: true }).click();
      const again = page.getByRole("dialog", { name: "Confirm Your Commitment" });
      await expect(again.getByTestId("commit-saved-card")).toHaveText("Pay with Visa ·4242 (change)");
      if (SHOTS) await again.screenshot({ path: `${SHOTS}/one-tap-${viewport.width}.png` });
      await again.getByRole("button", { name: "Yes, I'm In!" }).click();
      await expect(page.getByRole("dialog", { name: "You're Committed!" })).toBeVisible();
      await expect(page.getByRole("dialog", { name: "Save Payment Method" })).toHaveCount(0);
      const [saved] = await cardsOf(me.id);
      expect(await pledgeCards(me.id)).toEqual([
        { paymentMethodId: saved.paymentMethodId, cardLast4: "4242" },
        { paymentMethodId: saved.paymentMethodId, cardLast4: "4242" },
      ]);
      await page
        .getByRole("dialog", { name: "You're Committed!" })
        .getByRole("button", { name: "Close", exact: true })
        .last()
        .click();

      // the event page still ships at most 150 kB of first-load JS (the card part loads with the dialog)
      const kb = await firstLoadKb(page, `/campaign/${second.id}`);
      console.log(`event page first-load JS (signed in, gzipped): ${kb.toFixed(1)} kB`);
      expect(kb).toBeLessThanOrEqual(150);

      // the profile lists it; removing it asks for another card for the two commitments, then moves them
      await page.goto("/profile");
      const section = page.getByTestId("saved-cards");
      await expect(section).toContainText("Visa ·4242");
      await expect(section).toContainText("Default");
      if (SHOTS) await section.screenshot({ path: `${SHOTS}/profile-cards-${viewport.width}.png` });
      await section.getByRole("button", { name: "Remove Visa ·4242" }).click();
      const ask = page.getByRole("dialog", { name: "Choose another card first" });
      await expect(ask).toContainText(first.title);
      await expect(ask).toContainText(second.title);
      if (SHOTS) await ask.screenshot({ path: `${SHOTS}/remove-asks-${viewport.width}.png` });
      await ask.getByRole("button", { name: "Use a new card" }).click();
      await fillCard(page, "5555 5555 5555 4444", "Save card and move them");
      await expect(ask).toBeHidden();
      await expect(section).toContainText("Mastercard ·4444");
      await expect(section).not.toContainText("Visa ·4242");
      const now = await cardsOf(me.id);
      expect(now.map((c) => [c.last4, c.isDefault])).toEqual([["4444", true]]);
      expect((await pledgeCards(me.id)).map((p) => p.paymentMethodId)).toEqual([
        now[0].paymentMethodId,
        now[0].paymentMethodId,
      ]);
    });
  });
}
