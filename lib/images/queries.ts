import "server-only";
import { db } from "@/lib/db";
import { isRowId } from "@/lib/ids";
import type { CoverSize } from "@/lib/images/limits";

/** One width of a cover, or null. Covers hold no one's identity: anyone with the id may fetch it. */
export async function getCoverVariant(
  imageId: string,
  size: CoverSize,
): Promise<{ bytes: Uint8Array; etag: string } | null> {
  if (!isRowId(imageId)) return null;
  const row = await db.coverImage.findUnique({
    where: { id: imageId },
    select: { etag: true, small: size === "small", medium: size === "medium", large: size === "large" },
  });
  if (!row) return null;
  const bytes = row[size];
  return bytes ? { bytes, etag: `"${row.etag}-${size}"` } : null;
}

/** A cover as a JPEG data URL at `width` × `height` (the social image draws it; it takes no WebP). */
export async function coverDataUrl(imageId: string, width: number, height: number): Promise<string | null> {
  const variant = await getCoverVariant(imageId, "medium");
  if (!variant) return null;
  const sharp = (await import("sharp")).default;
  const jpeg = await sharp(variant.bytes)
    .resize(width, height, { fit: "cover" })
    .jpeg({ quality: 70 })
    .toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString("base64")}`;
}
