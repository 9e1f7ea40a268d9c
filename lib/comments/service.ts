import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { parseInput } from "@/lib/actions";
import { consume, secondsText } from "@/lib/rate-limit/service";
import { canComment } from "@/lib/comments/policy";
import { COMMENT_RATE_LIMIT, createCommentSchema, deleteCommentSchema } from "@/lib/comments/schema";
import { type Actor, canOverseeEvent, canSeeEvent } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";
import { ACCESS_TEXTS } from "@/lib/access/texts";

/**
 * Posts a comment. Refused for signed-out users and, for non-admins, on events that are not
 * approved (for whom such an event does not exist). Rate-limited per user. Returns the campaign id
 * so the caller can revalidate the page.
 */
export async function createComment(
  viewer: Actor,
  input: unknown,
): Promise<{ id: string; campaignId: string }> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in to comment.");
  const { campaignId, text } = parseInput(createCommentSchema, input);
  const campaign = await loadCampaignFor(viewer, campaignId, "see");
  if (!canComment(viewer, campaign))
    throw new AppError("FORBIDDEN", "Comments open once the event is approved.");

  await consume(
    { key: `comment:user:${viewer.id}`, ...COMMENT_RATE_LIMIT },
    (ms) => `You're commenting too quickly. Please wait ${secondsText(ms)} and try again.`,
  );
  const comment = await db.comment.create({
    data: { campaignId, authorId: viewer.id, text },
    select: { id: true },
  });
  return { id: comment.id, campaignId };
}

/** Deletes a comment: the event's organizer and admins only. */
export async function deleteComment(viewer: Actor, input: unknown): Promise<{ campaignId: string }> {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  const { commentId } = parseInput(deleteCommentSchema, input, { message: "Invalid comment." });
  const comment = await db.comment.findUnique({
    where: { id: commentId },
    select: { id: true, campaignId: true, campaign: { select: { creatorId: true, approvalStatus: true } } },
  });
  if (!comment || !canSeeEvent(viewer, comment.campaign))
    throw new AppError("NOT_FOUND", "Comment not found.");
  if (!canOverseeEvent(viewer, comment.campaign))
    throw new AppError("FORBIDDEN", ACCESS_TEXTS.deleteCommentDenied);
  // deleteMany: a concurrent delete of the same comment is not an error.
  await db.comment.deleteMany({ where: { id: comment.id } });
  return { campaignId: comment.campaignId };
}
