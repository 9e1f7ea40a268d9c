import jsQR from "jsqr";
import sharp from "sharp";

/** Reads the QR code in a PNG (a Buffer or a data: URL) with a decoder library: its text. */
export async function decodeQr(png: Buffer | string): Promise<string | null> {
  const buf =
    typeof png === "string" ? Buffer.from(png.replace(/^data:image\/png;base64,/, ""), "base64") : png;
  const { data, info } = await sharp(buf).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  const found = jsQR(
    new Uint8ClampedArray(data.buffer, data.byteOffset, data.length),
    info.width,
    info.height,
  );
  return found?.data ?? null;
}
