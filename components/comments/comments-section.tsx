import Link from "next/link";
import type { Viewer } from "@/lib/access/viewer";
import { eventComments } from "@/components/campaigns/event-data";
import { CommentForm } from "@/components/comments/comment-form";
import { CommentItem } from "@/components/comments/comment-item";
import { MoreComments } from "@/components/comments/more-comments";

/**
 * The event page's comments: the newest (lib/comments/queries COMMENTS_SHOWN), older ones on
 * demand ("Show more comments"), and the form. Server-rendered; identities are removed
 * in lib/privacy before anything reaches this component, so hidden names never enter the HTML or
 * the RSC payload.
 */
export async function CommentsSection({
  campaign,
  viewer,
  now,
}: {
  campaign: { id: string };
  viewer: Viewer | null;
  now: number | Date;
}) {
  const campaignId = campaign.id;
  const view = await eventComments(campaignId, viewer, new Date(now).getTime());
  if (!view) return null;
  const { comments, total } = view;

  return (
    <section aria-labelledby="comments-heading">
      <h2 id="comments-heading" className="text-xl font-bold text-slate-900">
        Comments <span className="font-medium text-slate-500">({total})</span>
      </h2>

      <div className="mt-4">
        {view.canPost ? (
          <CommentForm campaignId={campaignId} />
        ) : view.signedIn ? (
          <p className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
            Comments open once the event is approved.
          </p>
        ) : (
          <p className="rounded-lg border border-slate-200 bg-slate-50 px-4 py-3 text-sm text-slate-700">
            <Link href="/profile" className="font-semibold text-brand-700 underline-offset-2 hover:underline">
              Sign in
            </Link>{" "}
            to join the conversation.
          </p>
        )}
      </div>

      {comments.length === 0 ? (
        <p className="mt-6 text-sm text-slate-500">No comments yet. Be the first to say something!</p>
      ) : (
        <ul className="mt-6 space-y-3">
          {comments.map((c) => (
            <CommentItem key={c.key} comment={c} canDelete={view.canDelete} />
          ))}
        </ul>
      )}
      <MoreComments
        key={`${comments[0]?.key ?? ""}-${total}`}
        campaignId={campaignId}
        shown={comments.length}
        total={total}
        canDelete={view.canDelete}
      />
    </section>
  );
}
