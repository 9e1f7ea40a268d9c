import crypto from "node:crypto";
import zlib from "node:zlib";
import jsQR from "jsqr";
import sharp from "sharp";
import { createCampaign, createUser, expect, loginAs, sql, test } from "./fixtures";

/* Issue 36 item 1: an attendee of a confirmed event sees their ticket — its QR code (read back with a
   decoder library: the ticket's token) and its short code — under My commitments, on the event page
   and in print; nobody else sees it; a withdrawn place's ticket says it is void. */

async function decodeDataUrl(src: string): Promise<string | null> {
  const png = Buffer.from(src.replace(/^data:image\/png;base64,/, ""), "base64");
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return (
    jsQR(new Uint8ClampedArray(data.buffer, data.byteOffset, data.length), info.width, info.height)?.data ??
    null
  );
}

const sha256 = (s: string) => crypto.createHash("sha256").update(s).digest("base64url");

for (const viewport of [
  { width: 375, height: 812 },
  { width: 1440, height: 900 },
]) {
  test.describe(`tickets at ${viewport.width} px`, () => {
    test.use({ viewport });

    test("an attendee of a confirmed free event sees their ticket and its code; others see none; withdrawn, it is void", async ({
      page,
    }) => {
      const t = crypto.randomBytes(3).toString("hex");
      const event = await createCampaign({
        title: `Ticketed picnic ${t}`,
        goal: 1,
        startsAt: new Date(Date.now() + 10 * 86_400_000),
        venue: "Riverside Park",
        area: "North bank",
      });
      const attendee = await createUser({ name: `Tia ${t}` });
      await loginAs(page, attendee);
      await page.goto(`/campaign/${event.id}`);
      await page.getByRole("button", { name: "Commit", exact: true }).click();
      await page
        .getByRole("dialog", { name: "Confirm Your Commitment" })
        .getByRole("button", { name: "Yes, I'm In!" })
        .click();
      const result = page.getByRole("dialog", { name: "Event Confirmed!" });
      await expect(result).toBeVisible();
      await result.getByRole("button", { name: "Close", exact: true }).last().click();

      const { rows } = await sql().query(
        `SELECT t.code, t."tokenHash" FROM "Ticket" t JOIN "Pledge" p ON p.id = t."pledgeId"
         WHERE p."campaignId" = $1 AND p."userId" = $2`,
        [event.id, attendee.id],
      );
      expect(rows).toHaveLength(1);
      const code = `${rows[0].code.slice(0, 4)}-${rows[0].code.slice(4)}`;

      // the event page: fetched by the holder's browser after the (shared) page loaded
      await page.goto(`/campaign/${event.id}`);
      const onEvent = page.getByRole("region", { name: "Your ticket" });
      await expect(onEvent.getByTestId("ticket-code")).toHaveText(code);
      const eventQr = await onEvent.getByRole("img", { name: /Ticket QR code/ }).getAttribute("src");
      expect(sha256((await decodeDataUrl(eventQr!))!)).toBe(rows[0].tokenHash);
      if (process.env.TICKET_SHOTS)
        await onEvent.screenshot({ path: `${process.env.TICKET_SHOTS}/event-page-${viewport.width}.png` });
      // the event page's first-load JS stays within 150 kB gzipped with the ticket on it (no QR library
      // reaches the browser: the image is drawn on the server); measured as scripts/bench does
      const html = await (await page.request.get(`/campaign/${event.id}`)).text();
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
      expect(gz / 1024).toBeLessThanOrEqual(150);

      // My commitments
      await page.goto("/profile");
      const section = page.getByRole("region", { name: "My commitments" });
      const ticket = section.getByTestId("ticket");
      await expect(ticket).toContainText("Your ticket");
      await expect(ticket.getByTestId("ticket-code")).toHaveText(code);
      const img = ticket.getByRole("img", { name: `Ticket QR code, code ${code}` });
      await expect(img).toBeVisible();
      expect(await img.evaluate((el: HTMLImageElement) => el.complete && el.naturalWidth > 0)).toBe(true);
      expect(sha256((await decodeDataUrl((await img.getAttribute("src"))!))!)).toBe(rows[0].tokenHash);
      // the card fits the viewport: nothing overflows sideways
      const box = (await ticket.boundingBox())!;
      expect(box.x).toBeGreaterThanOrEqual(0);
      expect(box.x + box.width).toBeLessThanOrEqual(viewport.width);
      if (process.env.TICKET_SHOTS)
        await section.screenshot({
          path: `${process.env.TICKET_SHOTS}/my-commitments-${viewport.width}.png`,
        });

      // the print view
      await ticket.getByRole("link", { name: "Print ticket" }).click();
      await expect(page).toHaveURL(new RegExp(`/campaign/${event.id}/ticket$`));
      await expect(page.getByRole("heading", { name: `Ticketed picnic ${t}` })).toBeVisible();
      await expect(page.getByTestId("ticket-code")).toHaveText(code);
      await expect(page.getByRole("button", { name: "Print ticket" })).toBeVisible();
      if (process.env.TICKET_SHOTS)
        await page.screenshot({
          path: `${process.env.TICKET_SHOTS}/print-${viewport.width}.png`,
          fullPage: true,
        });

      // someone else (here the organizer, signed in): no ticket anywhere, nothing of the token
      // nothing in flight (a prefetch of the header's Profile link) may set the last person's cookie again
      await page.waitForLoadState("networkidle");
      await page.goto("about:blank");
      await page.context().clearCookies();
      await loginAs(page, event.creator);
      await page.goto(`/campaign/${event.id}`);
      await expect(page.getByRole("heading", { name: `Ticketed picnic ${t}` })).toBeVisible();
      const asOrganizer = await page.request.get(`/api/me/tickets/${event.id}`);
      expect(await asOrganizer.json()).toEqual({ ticket: null });
      await expect(page.getByRole("region", { name: "Your ticket" })).toHaveCount(0);
      expect(await page.content()).not.toContain(rows[0].code);
      expect((await page.goto(`/campaign/${event.id}/ticket`))!.status()).toBe(404);

      // withdrawn (the marker, as a change-window withdrawal leaves it): the holder's ticket says void
      await sql().query(
        `UPDATE "Pledge" SET "withdrawnAt" = now() WHERE "campaignId" = $1 AND "userId" = $2`,
        [event.id, attendee.id],
      );
      // nothing in flight (a prefetch of the header's Profile link) may set the last person's cookie again
      await page.waitForLoadState("networkidle");
      await page.goto("about:blank");
      await page.context().clearCookies();
      await loginAs(page, attendee);
      await page.goto("/profile");
      const voided = page.getByRole("region", { name: "My commitments" }).getByTestId("ticket");
      await expect(voided).toContainText("Ticket (void)");
      await expect(voided).toContainText("Void: this commitment was withdrawn.");
      await expect(voided.getByRole("link", { name: "Print ticket" })).toHaveCount(0);
      if (process.env.TICKET_SHOTS)
        await voided.screenshot({ path: `${process.env.TICKET_SHOTS}/void-${viewport.width}.png` });
    });
  });
}
