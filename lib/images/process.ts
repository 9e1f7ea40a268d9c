import crypto from "node:crypto";
import sharp, { type Metadata } from "sharp";
import { AppError } from "@/lib/errors";
import { COVER_MAX_BYTES, COVER_MAX_PIXELS, COVER_WIDTHS } from "@/lib/images/limits";
import { COVER_TEXTS } from "@/lib/images/texts";

/**
 * Cover images (issue 17). An upload is checked by its content, not its name: the first bytes must
 * say JPEG, PNG or WebP, the header's size must stay under COVER_MAX_PIXELS before anything is
 * decoded, and sharp decodes it under limitInputPixels. What is kept is re-encoded WebP at three
 * widths, rotated upright; sharp writes no metadata unless asked, so EXIF and GPS tags are gone.
 */

type Bytes = Uint8Array<ArrayBuffer>;
type Processed = { etag: string; width: number; height: number; small: Bytes; medium: Bytes; large: Bytes };

/** The format the first bytes say, or null: never trust the file name or the declared type. */
export function sniffImage(bytes: Uint8Array): "jpeg" | "png" | "webp" | null {
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "jpeg";
  const png = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
  if (bytes.length >= 8 && png.every((b, i) => bytes[i] === b)) return "png";
  const ascii = (from: number, to: number) => String.fromCharCode(...bytes.subarray(from, to));
  if (bytes.length >= 12 && ascii(0, 4) === "RIFF" && ascii(8, 12) === "WEBP") return "webp";
  return null;
}

export async function processCover(bytes: Buffer): Promise<Processed> {
  if (bytes.length === 0) throw new AppError("BAD_REQUEST", COVER_TEXTS.missing);
  if (bytes.length > COVER_MAX_BYTES) throw new AppError("BAD_REQUEST", COVER_TEXTS.tooBig);
  const format = sniffImage(bytes);
  if (!format) throw new AppError("BAD_REQUEST", COVER_TEXTS.notImage);
  let meta: Metadata;
  try {
    // the header only (no pixel is decoded here), so the size is read and judged below with its own message
    meta = await sharp(bytes, { limitInputPixels: false }).metadata();
  } catch {
    throw new AppError("BAD_REQUEST", COVER_TEXTS.notImage);
  }
  if (meta.format !== format) throw new AppError("BAD_REQUEST", COVER_TEXTS.notImage);
  if (!meta.width || !meta.height) throw new AppError("BAD_REQUEST", COVER_TEXTS.notImage);
  if (meta.width * meta.height > COVER_MAX_PIXELS)
    throw new AppError("BAD_REQUEST", COVER_TEXTS.tooManyPixels);
  try {
    const upright = sharp(bytes, { limitInputPixels: COVER_MAX_PIXELS, failOn: "error" }).rotate();
    const encode = (width: number) =>
      upright
        .clone()
        .resize({ width, withoutEnlargement: true })
        .webp({ quality: 80 })
        .toBuffer()
        .then((b) => new Uint8Array(b)); // a copy on its own ArrayBuffer, as Prisma's Bytes wants
    const [small, medium, large] = await Promise.all([
      encode(COVER_WIDTHS.small),
      encode(COVER_WIDTHS.medium),
      encode(COVER_WIDTHS.large),
    ]);
    const swapped = (meta.orientation ?? 1) >= 5; // EXIF orientations 5–8 turn the picture a quarter
    return {
      etag: crypto.createHash("sha256").update(large).digest("base64url").slice(0, 32),
      width: swapped ? meta.height : meta.width,
      height: swapped ? meta.width : meta.height,
      small,
      medium,
      large,
    };
  } catch {
    throw new AppError("BAD_REQUEST", COVER_TEXTS.notImage);
  }
}
