import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import sharp from "sharp";
// s3rver: a local implementation of the S3 API (the real protocol, signatures included)
import S3rver from "s3rver";
import { jpegWithGps } from "@/tests/helpers/images";

/*
 * Covers in an S3-compatible bucket (issue 17): the real S3 client against a local S3 server.
 * The settings are in place before the app's modules load (lib/env parses them once).
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pn-s3-"));
const server = new S3rver({
  address: "127.0.0.1",
  port: 0,
  silent: true,
  directory: dir,
  configureBuckets: [{ name: "covers", configs: [] }],
});
let base = "";

beforeAll(async () => {
  const { port } = (await server.run()) as unknown as { port: number };
  base = `http://127.0.0.1:${port}`;
  Object.assign(process.env, {
    S3_ENDPOINT: base,
    S3_BUCKET: "covers",
    S3_REGION: "us-east-1",
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    S3_PUBLIC_URL: `${base}/covers`,
  });
});
afterAll(async () => {
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
  for (const k of [
    "S3_ENDPOINT",
    "S3_BUCKET",
    "S3_REGION",
    "S3_ACCESS_KEY_ID",
    "S3_SECRET_ACCESS_KEY",
    "S3_PUBLIC_URL",
  ])
    delete process.env[k];
});

const viewer = (u: { id: string; email: string }) => ({
  id: u.id,
  email: u.email,
  name: null,
  isAdmin: false,
});

describe("covers in an S3-compatible bucket", () => {
  it("uploads the three widths to the bucket, redirects browsers there, replaces and removes them", async () => {
    const { db } = await import("@/lib/db");
    const { setCover, removeCover } = await import("@/lib/images/service");
    const { getCoverVariant } = await import("@/lib/images/queries");
    const { createCampaign, createUser } = await import("@/tests/helpers/factories");
    const organizer = await createUser();
    const campaign = await createCampaign({ creatorId: organizer.id });
    const file = new Blob([new Uint8Array(await jpegWithGps(1200, 800))]);

    const first = await setCover(viewer(organizer), campaign.id, file);
    const row = await db.coverImage.findUniqueOrThrow({ where: { id: first.id } });
    expect(row).toMatchObject({ storage: "s3", small: null, medium: null, large: null });
    const where = await getCoverVariant(first.id, "medium");
    expect(where).toEqual({ redirect: `${base}/covers/covers/${first.id}/medium.webp` });
    const res = await fetch((where as { redirect: string }).redirect);
    expect(res.status).toBe(200);
    const bytes = Buffer.from(await res.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 960 });
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from("GPS Leaker"))).toBe(false);

    // replacing deletes the old objects; removing deletes the new ones
    const second = await setCover(viewer(organizer), campaign.id, file);
    expect((await fetch(`${base}/covers/covers/${first.id}/small.webp`)).status).toBe(404);
    expect((await fetch(`${base}/covers/covers/${second.id}/large.webp`)).status).toBe(200);
    await removeCover(viewer(organizer), campaign.id);
    expect((await fetch(`${base}/covers/covers/${second.id}/large.webp`)).status).toBe(404);
  });

  it("names the bucket in the CSP's img-src", async () => {
    const { buildCsp } = await import("@/lib/security/csp");
    const csp = buildCsp({ stripe: false, dev: false, imagesUrl: `${base}/covers` });
    expect(csp).toMatch(new RegExp(`img-src [^;]*${base.replace(/[.:/]/g, "\\$&")}`));
  });
});
