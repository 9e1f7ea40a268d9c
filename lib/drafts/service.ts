import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import type { Viewer } from "@/lib/access/viewer";
import { draftIdSchema, draftSchema } from "@/lib/drafts/schema";
import { consume, minutesText } from "@/lib/rate-limit/service";

/** Abuse guard on draft saves per user (autosave-like use stays far below it). */
const DRAFT_SAVE_LIMIT = { limit: 120, windowMs: 3600_000 } as const;

/**
 * Saves a draft for `owner`: creates one, or updates the given id only if the owner holds it (a
 * foreign id is "not found", so nobody can overwrite or probe another user's drafts).
 */
export async function saveDraft(owner: Viewer | null, input: unknown): Promise<{ id: string }> {
  if (!owner) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { id, ...data } = parseInput(draftSchema, input);
  await consume(
    { key: `save-draft:${owner.id}`, ...DRAFT_SAVE_LIMIT },
    (ms) => `Too many drafts saved. Please try again in ${minutesText(ms)}.`,
  );
  if (id) {
    const { count } = await db.campaignDraft.updateMany({ where: { id, creatorId: owner.id }, data });
    if (count === 1) return { id };
    throw new AppError("NOT_FOUND", "Draft not found");
  }
  return db.campaignDraft.create({ data: { ...data, creatorId: owner.id }, select: { id: true } });
}

/** Deletes one of the owner's drafts; anyone else's id is "not found" and nothing changes. */
export async function deleteDraft(owner: Viewer | null, draftId: unknown): Promise<void> {
  if (!owner) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const id = parseInput(draftIdSchema, draftId);
  const { count } = await db.campaignDraft.deleteMany({ where: { id, creatorId: owner.id } });
  if (count === 0) throw new AppError("NOT_FOUND", "Draft not found");
}
