import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import type { Actor } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";
import { isCampaignId } from "@/lib/ids";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { consume, minutesText } from "@/lib/rate-limit/service";
import { COVER_MAX_BYTES, COVER_UPLOAD_LIMIT } from "@/lib/images/limits";
import { processCover } from "@/lib/images/process";
import { coverBucket, deleteCoverObjects, putCoverObjects } from "@/lib/images/storage";
import crypto from "node:crypto";
import { COVER_TEXTS } from "@/lib/images/texts";

/**
 * Sets the cover of an event its organizer manages; the old cover is deleted in the same
 * transaction, and the event's row moves (its cached copies' version with it).
 */
export async function setCover(actor: Actor, campaignId: unknown, file: unknown): Promise<{ id: string }> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (typeof campaignId !== "string" || !isCampaignId(campaignId))
    throw new AppError("NOT_FOUND", ACCESS_TEXTS.manageDenied);
  await loadCampaignFor(actor, campaignId, "manage");
  if (!(file instanceof Blob)) throw new AppError("BAD_REQUEST", COVER_TEXTS.missing);
  if (file.size > COVER_MAX_BYTES) throw new AppError("BAD_REQUEST", COVER_TEXTS.tooBig);
  await consume({ key: `cover-upload:${actor.id}`, ...COVER_UPLOAD_LIMIT }, (ms) =>
    COVER_TEXTS.tooMany(minutesText(ms)),
  );
  const { small, medium, large, ...facts } = await processCover(Buffer.from(await file.arrayBuffer()));
  // With a bucket, the objects are written first (under a fresh id) and the row after; a row that
  // fails to commit takes its objects back, and the replaced cover's objects go once it is gone.
  const bucket = coverBucket();
  const id = `c${crypto.randomBytes(12).toString("hex")}`;
  if (bucket) await putCoverObjects(bucket, id, { small, medium, large });
  let replaced: { id: string; storage: string }[] = [];
  try {
    await db.$transaction(async (tx) => {
      await loadCampaignFor(actor, campaignId, "manage", { tx, lock: true });
      replaced = await tx.coverImage.findMany({ where: { campaignId }, select: { id: true, storage: true } });
      await tx.coverImage.deleteMany({ where: { campaignId } });
      await tx.coverImage.create({
        data: {
          id,
          campaignId,
          uploaderId: actor.id,
          ...facts,
          ...(bucket ? { storage: "s3" } : { storage: "postgres", small, medium, large }),
        },
      });
      // the column lists read (no join); written with the row, in this transaction
      await tx.campaign.update({ where: { id: campaignId }, data: { coverId: id, updatedAt: new Date() } });
    });
  } catch (err) {
    if (bucket) await deleteCoverObjects(bucket, [id]);
    throw err;
  }
  if (bucket) await deleteCoverObjects(bucket, inBucket(replaced));
  return { id };
}

const inBucket = (rows: { id: string; storage: string }[]) =>
  rows.filter((r) => r.storage === "s3").map((r) => r.id);

/** Removes an event's cover (the generated one shows again). */
export async function removeCover(actor: Actor, campaignId: unknown): Promise<void> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (typeof campaignId !== "string" || !isCampaignId(campaignId))
    throw new AppError("NOT_FOUND", ACCESS_TEXTS.manageDenied);
  const removed = await db.$transaction(async (tx) => {
    await loadCampaignFor(actor, campaignId, "manage", { tx, lock: true });
    const rows = await tx.coverImage.findMany({ where: { campaignId }, select: { id: true, storage: true } });
    await tx.coverImage.deleteMany({ where: { campaignId } });
    if (rows.length > 0)
      await tx.campaign.update({ where: { id: campaignId }, data: { coverId: null, updatedAt: new Date() } });
    return rows;
  });
  const bucket = coverBucket();
  if (bucket) await deleteCoverObjects(bucket, inBucket(removed));
}
