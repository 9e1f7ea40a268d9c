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
  const processed = await processCover(Buffer.from(await file.arrayBuffer()));
  return db.$transaction(async (tx) => {
    await loadCampaignFor(actor, campaignId, "manage", { tx, lock: true });
    await tx.coverImage.deleteMany({ where: { campaignId } });
    const created = await tx.coverImage.create({
      data: { campaignId, uploaderId: actor.id, ...processed },
      select: { id: true },
    });
    // the column lists read (no join); written with the row, in this transaction
    await tx.campaign.update({
      where: { id: campaignId },
      data: { coverId: created.id, updatedAt: new Date() },
    });
    return created;
  });
}

/** Removes an event's cover (the generated one shows again). */
export async function removeCover(actor: Actor, campaignId: unknown): Promise<void> {
  if (!actor) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (typeof campaignId !== "string" || !isCampaignId(campaignId))
    throw new AppError("NOT_FOUND", ACCESS_TEXTS.manageDenied);
  await db.$transaction(async (tx) => {
    await loadCampaignFor(actor, campaignId, "manage", { tx, lock: true });
    const { count } = await tx.coverImage.deleteMany({ where: { campaignId } });
    if (count > 0)
      await tx.campaign.update({ where: { id: campaignId }, data: { coverId: null, updatedAt: new Date() } });
  });
}
