import "server-only";
import { DeleteObjectsCommand, PutObjectCommand, S3Client } from "@aws-sdk/client-s3";
import { env } from "@/lib/env";
import { COVER_SIZES, type CoverSize } from "@/lib/images/limits";

/**
 * Where cover bytes live (issue 17). By default in PostgreSQL (the CoverImage row's columns, served
 * by the app). With S3_BUCKET (and S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY,
 * S3_PUBLIC_URL) in an S3-compatible bucket: objects `covers/<id>/<size>.webp`, written before the
 * row and deleted after it, served to browsers from S3_PUBLIC_URL (the image route redirects there,
 * and the CSP's img-src names it). Tested against s3rver, a local implementation of the S3 API.
 */
type Bucket = { client: S3Client; name: string; publicUrl: string };

let cached: { key: string; bucket: Bucket } | null = null;

export function coverBucket(): Bucket | null {
  const e = env();
  if (!e.S3_BUCKET || !e.S3_PUBLIC_URL) return null;
  const key = [e.S3_ENDPOINT, e.S3_REGION, e.S3_BUCKET, e.S3_ACCESS_KEY_ID, e.S3_PUBLIC_URL].join("|");
  if (cached?.key !== key) {
    const client = new S3Client({
      region: e.S3_REGION,
      endpoint: e.S3_ENDPOINT,
      forcePathStyle: Boolean(e.S3_ENDPOINT), // S3-compatible servers (MinIO, R2, s3rver) want path-style
      credentials:
        e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
          : undefined,
    });
    cached = { key, bucket: { client, name: e.S3_BUCKET, publicUrl: e.S3_PUBLIC_URL.replace(/\/$/, "") } };
  }
  return cached.bucket;
}

export const objectKey = (imageId: string, size: CoverSize) => `covers/${imageId}/${size}.webp`;

/** Where a browser fetches a cover kept in the bucket. */
export const bucketUrl = (b: Bucket, imageId: string, size: CoverSize) =>
  `${b.publicUrl}/${objectKey(imageId, size)}`;

export async function putCoverObjects(
  b: Bucket,
  imageId: string,
  variants: Record<CoverSize, Uint8Array>,
): Promise<void> {
  await Promise.all(
    COVER_SIZES.map((size) =>
      b.client.send(
        new PutObjectCommand({
          Bucket: b.name,
          Key: objectKey(imageId, size),
          Body: variants[size],
          ContentType: "image/webp",
          CacheControl: "public, max-age=31536000, immutable",
        }),
      ),
    ),
  );
}

/** Deletes covers' objects; a failure is logged, not thrown (the row is already gone). */
export async function deleteCoverObjects(b: Bucket, imageIds: string[]): Promise<void> {
  if (imageIds.length === 0) return;
  try {
    await b.client.send(
      new DeleteObjectsCommand({
        Bucket: b.name,
        Delete: {
          Objects: imageIds.flatMap((id) => COVER_SIZES.map((size) => ({ Key: objectKey(id, size) }))),
        },
      }),
    );
  } catch (err) {
    console.error(
      "[images] could not delete cover objects",
      imageIds,
      err instanceof Error ? err.message : err,
    );
  }
}
