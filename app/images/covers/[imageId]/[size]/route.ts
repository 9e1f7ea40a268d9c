import { handle } from "@/lib/http";
import { getCoverVariant } from "@/lib/images/queries";
import { COVER_SIZES, type CoverSize } from "@/lib/images/limits";

/**
 * One width of a cover, as WebP. A cover never changes under its id (a new upload is a new id), so
 * it is cached for a year, immutable, with an ETag for revalidation.
 */
export const GET = handle(
  async (req: Request, { params }: { params: Promise<{ imageId: string; size: string }> }) => {
    const { imageId, size } = await params;
    const variant = COVER_SIZES.includes(size as CoverSize)
      ? await getCoverVariant(imageId, size as CoverSize)
      : null;
    if (!variant) return new Response("Not found", { status: 404, headers: { "cache-control": "no-store" } });
    // kept in the bucket: the browser fetches it there (the CSP's img-src names S3_PUBLIC_URL)
    if ("redirect" in variant)
      return new Response(null, {
        status: 302,
        headers: { location: variant.redirect, "cache-control": "public, max-age=31536000, immutable" },
      });
    const headers = {
      "content-type": "image/webp",
      "cache-control": "public, max-age=31536000, immutable",
      etag: variant.etag,
      "x-content-type-options": "nosniff",
    };
    if (req.headers.get("if-none-match") === variant.etag)
      return new Response(null, { status: 304, headers });
    return new Response(Buffer.from(variant.bytes), { headers });
  },
);
