import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { idSchema, offsetSchema } from "@/lib/ids";
import { COMMENT_MAX, COMMENT_REQUIRED, COMMENT_TOO_LONG } from "@/lib/comments/limits";

export { COMMENT_MAX, COMMENT_REQUIRED, COMMENT_TOO_LONG };

/** Shared by the comment form (live checks) and the server action. */
export const commentTextSchema = z
  .string({ error: COMMENT_REQUIRED })
  .trim()
  .min(1, COMMENT_REQUIRED)
  .max(COMMENT_MAX, COMMENT_TOO_LONG);

export const createCommentSchema = z.object({ campaignId: idSchema(), text: commentTextSchema });

export const deleteCommentSchema = z.object({ commentId: idSchema() });

/** "Show more comments": the next page after the `offset` comments already shown (newest first). */
export const moreCommentsSchema = z.object({
  campaignId: idSchema(),
  offset: offsetSchema,
});

/** Per-user posting limit (DESIGN: rate limits live in Postgres, shared by every instance). */
export const COMMENT_RATE_LIMIT = { limit: 10, windowMs: 60_000 } as const;
