import crypto from "node:crypto";
import sharp from "sharp";
import { hugePngHeader, jpegWithGps } from "../tests/helpers/images";
import { createCampaign, createUser, expect, loginAs, test } from "./fixtures";

/*
 * Issue 17: the organizer's cover image. Judged by content, not by name; too big, too many pixels
 * and not-an-image are refused with a reason; what is served carries no EXIF/GPS.
 */

test("cover upload: refusals with reasons, then a photo served without its GPS tags, on the event page and card", async ({
  page,
}) => {
  const t = crypto.randomBytes(3).toString("hex");
  const organizer = await createUser({ name: `Cora ${t}` });
  const { id } = await createCampaign({ creator: organizer, title: `Cover test ${t}` });
  await loginAs(page, organizer);
  await page.goto(`/campaign/${id}/manage`);
  const section = page.getByRole("region", { name: "Cover image" });
  const input = section.locator('input[type="file"]');

  await input.setInputFiles({
    name: "holiday.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.from("just some text"),
  });
  await expect(section.getByRole("alert")).toHaveText("That file is not a JPEG, PNG or WebP image.");

  await input.setInputFiles({
    name: "big.jpg",
    mimeType: "image/jpeg",
    buffer: Buffer.alloc(6 * 1024 * 1024, 1),
  });
  await expect(section.getByRole("alert")).toHaveText(
    "That file is larger than 5 MB. Choose a smaller image.",
  );

  await input.setInputFiles({
    name: "bomb.png",
    mimeType: "image/png",
    buffer: hugePngHeader(30_000, 30_000),
  });
  await expect(section.getByRole("alert")).toHaveText(
    "That image is too large to process (over 40 megapixels). Choose a smaller one.",
  );

  // the 5 MB cap holds at the server too, not only in the browser
  const big = await page.request.post(`/api/campaigns/${id}/cover`, {
    multipart: {
      file: { name: "big.jpg", mimeType: "image/jpeg", buffer: Buffer.alloc(6 * 1024 * 1024, 1) },
    },
  });
  expect(big.status()).toBe(413);
  expect((await big.json()).error.message).toMatch(/too large/);

  const photo = await jpegWithGps(1600, 900);
  await input.setInputFiles({ name: "photo.jpg", mimeType: "image/jpeg", buffer: photo });
  await expect(section.getByRole("status")).toHaveText("Cover image saved.");

  await page.goto(`/campaign/${id}`);
  const cover = page.locator("header img").first();
  const src = await cover.getAttribute("src");
  expect(src).toMatch(/^\/images\/covers\/[a-z0-9]+\/medium$/);
  const res = await page.request.get(src!);
  expect(res.headers()["content-type"]).toBe("image/webp");
  expect(res.headers()["cache-control"]).toContain("immutable");
  const served = await res.body();
  expect(served.includes(Buffer.from("GPS Leaker"))).toBe(false);
  const meta = await sharp(served).metadata();
  expect(meta.exif).toBeUndefined();
  expect(meta.width).toBe(960);
  // revalidation by ETag
  const again = await page.request.get(src!, { headers: { "if-none-match": res.headers().etag } });
  expect(again.status()).toBe(304);
});
