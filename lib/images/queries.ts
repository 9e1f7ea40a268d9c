import "server-only";
import { db } from "@/lib/db";
import { isRowId } from "@/lib/ids";
import { bucketUrl, coverBucket } from "@/lib/images/storage";
import type { CoverSize } from "@/lib/images/limits";

/**
 * One width of a cover: its bytes (kept in PostgreSQL), or where it is in the bucket; null when
 * there is no such cover. Covers hold no one's identity: anyone with the id may fetch it.
 */
export async function getCoverVariant(
  imageId: string,
  size: CoverSize,
): Promise<{ bytes: Uint8Array; etag: string } | { redirect: string } | null> {
  if (!isRowId(imageId)) return null;
  const row = await db.coverImage.findUnique({
    where: { id: imageId },
    select: {
      etag: true,
      storage: true,
      small: size === "small",
      medium: size === "medium",
      large: size === "large",
    },
  });
  if (!row) return null;
  if (row.storage === "s3") {
    const bucket = coverBucket();
    return bucket ? { redirect: bucketUrl(bucket, imageId, size) } : null;
  }
  const bytes = row[size];
  return bytes ? { bytes, etag: `"${row.etag}-${size}"` } : null;
}

/** The bytes of one width, wherever they are kept (the social image draws the cover). */
async function coverBytes(imageId: string, size: CoverSize): Promise<Uint8Array | null> {
  const variant = await getCoverVariant(imageId, size);
  if (!variant) return null;
  if ("bytes" in variant) return variant.bytes;
  const res = await fetch(variant.redirect, { signal: AbortSignal.timeout(5_000) }).catch(() => null);
  return res?.ok ? new Uint8Array(await res.arrayBuffer()) : null;
}

/** A cover as a JPEG data URL at `width` × `height` (the social image draws it; it takes no WebP). */
export async function coverDataUrl(imageId: string, width: number, height: number): Promise<string | null> {
  const bytes = await coverBytes(imageId, "medium");
  if (!bytes) return null;
  const sharp = (await import("sharp")).default;
  const jpeg = await sharp(bytes).resize(width, height, { fit: "cover" }).jpeg({ quality: 70 }).toBuffer();
  return `data:image/jpeg;base64,${jpeg.toString("base64")}`;
}
