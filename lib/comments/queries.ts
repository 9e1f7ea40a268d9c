import "server-only";
import { db } from "@/lib/db";
import { canComment } from "@/lib/comments/policy";
import { hasCommitted, seeCampaign } from "@/lib/campaigns/queries";
import { presentComments, type PresentedIdentity } from "@/lib/privacy/present";
import { parseInput } from "@/lib/actions";
import { AppError } from "@/lib/errors";
import { moreCommentsSchema } from "@/lib/comments/schema";

import { COMMENTS_SHOWN } from "@/lib/campaigns/page-sizes";
import { type Actor, canOverseeEvent, canSeeCreatorEmail, type IdentityFacts } from "@/lib/access/rules";

export { COMMENTS_SHOWN };

export type PresentedComment = PresentedIdentity & {
  id: string;
  text: string;
  createdAt: Date;
  isOrganizer: boolean;
};

type CommentsView = {
  comments: PresentedComment[];
  total: number;
  canPost: boolean;
  canDelete: boolean;
  signedIn: boolean;
  /** Why a signed-in viewer cannot post (event not approved), for the form's place. */
  approvalStatus: string;
};

/**
 * The comments of an event as `viewer` may see them, newest first, identities already removed where
 * hidden. Null when the event does not exist for this viewer.
 */
export async function getCommentsView(
  campaignId: string,
  viewer: Actor,
  now: Date = new Date(),
  { offset = 0, limit = COMMENTS_SHOWN }: { offset?: number; limit?: number } = {},
): Promise<CommentsView | null> {
  const campaign = await seeCampaign(campaignId, viewer);
  if (!campaign) return null;

  // The page, its authors and the total in one statement (one round trip, one snapshot).
  const found = await db.$queryRaw<
    Array<{
      id: string;
      text: string;
      createdAt: Date;
      authorId: string;
      commenterNumber: number | null;
      name: string | null;
      email: string;
      total: number;
    }>
  >`
    SELECT c.id, c.text, c."createdAt", c."authorId", c."commenterNumber", u.name, u.email,
           (SELECT count(*) FROM "Comment" WHERE "campaignId" = ${campaignId})::int AS total
    FROM "Comment" c JOIN "User" u ON u.id = c."authorId"
    WHERE c."campaignId" = ${campaignId}
    ORDER BY c."createdAt" DESC, c.id DESC
    LIMIT ${limit} OFFSET ${offset}`;
  const rows = found.map(({ name, email, total: _total, commenterNumber: _n, ...r }) => ({
    ...r,
    author: { name, email },
  }));
  const total = found[0]?.total ?? (offset === 0 ? 0 : await db.comment.count({ where: { campaignId } }));
  // "Commenter #n" is stored with each comment (a trigger numbers a new author), never renumbered
  const numbers = new Map(
    found.filter((r) => r.commenterNumber !== null).map((r) => [r.authorId, r.commenterNumber!]),
  );

  const committed = viewer ? await hasCommitted(campaignId, viewer.id) : false;
  const privacyCampaign: IdentityFacts = { ...campaign, pactType: campaign.pactType ?? null };
  const comments = presentComments(viewer, privacyCampaign, rows, numbers, now, {
    seesOrganizer: canSeeCreatorEmail(viewer, campaign, committed),
  });
  return {
    comments,
    total,
    canPost: canComment(viewer, campaign),
    canDelete: canOverseeEvent(viewer, campaign),
    signedIn: Boolean(viewer),
    approvalStatus: campaign.approvalStatus,
  };
}

/**
 * "Show more comments": the next comments after the first `offset`, presented for `viewer` exactly
 * as on the page (same privacy rules, same numbering). A missing or hidden event is "not found".
 */
export async function listMoreComments(
  viewer: Actor,
  input: unknown,
): Promise<{ comments: PresentedComment[]; total: number; canDelete: boolean }> {
  const { campaignId, offset } = parseInput(moreCommentsSchema, input);
  const view = await getCommentsView(campaignId, viewer, new Date(), { offset });
  if (!view) throw new AppError("NOT_FOUND", "Campaign not found");
  return { comments: view.comments, total: view.total, canDelete: view.canDelete };
}
