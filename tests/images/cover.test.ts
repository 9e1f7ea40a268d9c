import { describe, expect, it } from "vitest";
import sharp from "sharp";
import { db } from "@/lib/db";
import { removeCover, setCover } from "@/lib/images/service";
import { processCover, sniffImage } from "@/lib/images/process";
import { getCoverVariant } from "@/lib/images/queries";
import { COVER_TEXTS } from "@/lib/images/texts";
import { createCampaign, createUser } from "@/tests/helpers/factories";
import { hugePngHeader, jpegWithGps } from "@/tests/helpers/images";

const viewer = (u: { id: string; email: string }) => ({
  id: u.id,
  email: u.email,
  name: null,
  isAdmin: false,
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (e: Error) => e.message,
  );

describe("processCover: judged by content, decoded under a pixel limit, metadata gone (issue 17)", () => {
  it("refuses text renamed .jpg, an oversized file and a 30,000 × 30,000 PNG, each with its reason", async () => {
    expect(await refusal(processCover(Buffer.from("not an image at all, just words")))).toBe(
      COVER_TEXTS.notImage,
    );
    expect(await refusal(processCover(Buffer.alloc(6 * 1024 * 1024, 0xff)))).toBe(COVER_TEXTS.tooBig);
    expect(await refusal(processCover(hugePngHeader(30_000, 30_000)))).toBe(COVER_TEXTS.tooManyPixels);
    // a GIF (a real image, not one of the three formats)
    const gif = await sharp({ create: { width: 4, height: 4, channels: 3, background: "#000" } })
      .gif()
      .toBuffer();
    expect(await refusal(processCover(gif))).toBe(COVER_TEXTS.notImage);
    // JPEG magic bytes on a broken body
    expect(await refusal(processCover(Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2, 3, 4])))).toBe(
      COVER_TEXTS.notImage,
    );
  });

  it("keeps WebP at three widths with no EXIF: the GPS tags and camera model are gone", async () => {
    const photo = await jpegWithGps(2000, 1000);
    expect(photo.includes(Buffer.from("GPS Leaker"))).toBe(true);
    const out = await processCover(photo);
    for (const [bytes, width] of [
      [out.small, 480],
      [out.medium, 960],
      [out.large, 1600],
    ] as const) {
      const meta = await sharp(bytes).metadata();
      expect(meta.format).toBe("webp");
      expect(meta.width).toBe(width);
      expect(meta.exif).toBeUndefined();
      expect(Buffer.from(bytes).includes(Buffer.from("GPS Leaker"))).toBe(false);
    }
    expect(out).toMatchObject({ width: 2000, height: 1000 });
  });

  it("sniffs formats by their first bytes", () => {
    expect(sniffImage(Buffer.from([0xff, 0xd8, 0xff]))).toBe("jpeg");
    expect(sniffImage(Buffer.from("RIFF0000WEBPVP8 "))).toBe("webp");
    expect(sniffImage(Buffer.from("<svg xmlns=…>"))).toBeNull();
  });
});

describe("setCover / removeCover", () => {
  it("the organizer sets and replaces a cover (the old one deleted), others are refused, removal works", async () => {
    const organizer = await createUser();
    const other = await createUser();
    const campaign = await createCampaign({ creatorId: organizer.id });
    const before = (await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).updatedAt;
    const file = new Blob([new Uint8Array(await jpegWithGps(800, 600))], { type: "image/jpeg" });

    expect(await refusal(setCover(viewer(other), campaign.id, file))).toMatch(/permission/);
    expect(await refusal(setCover(null, campaign.id, file))).toBe("Please sign in first.");
    expect(await db.coverImage.count({ where: { campaignId: campaign.id } })).toBe(0);

    const first = await setCover(viewer(organizer), campaign.id, file);
    const after = (await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).updatedAt;
    expect(after.getTime()).toBeGreaterThan(before.getTime()); // the cached copies' version moves
    const second = await setCover(viewer(organizer), campaign.id, file);
    expect(second.id).not.toBe(first.id);
    expect(await db.coverImage.findUnique({ where: { id: first.id } })).toBeNull();
    // the campaign row names its cover, so lists read it without a join
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).coverId).toBe(second.id);
    const served = await getCoverVariant(second.id, "medium");
    if (!served || !("bytes" in served)) throw new Error("kept in PostgreSQL by default");
    expect((await sharp(served.bytes).metadata()).width).toBe(800); // never enlarged

    expect(await refusal(removeCover(viewer(other), campaign.id))).toMatch(/permission/);
    await removeCover(viewer(organizer), campaign.id);
    expect(await db.coverImage.count({ where: { campaignId: campaign.id } })).toBe(0);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).coverId).toBeNull();
  });

  it("an event's deletion takes its cover along (no orphans)", async () => {
    const organizer = await createUser();
    const campaign = await createCampaign({ creatorId: organizer.id, isTest: true });
    const file = new Blob([new Uint8Array(await jpegWithGps(600, 400))]);
    const { id } = await setCover(viewer(organizer), campaign.id, file);
    await db.campaign.delete({ where: { id: campaign.id } });
    expect(await db.coverImage.findUnique({ where: { id } })).toBeNull();
  });
});
