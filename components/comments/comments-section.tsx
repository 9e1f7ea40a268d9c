import Link from "next/link";
import { getViewer } from "@/lib/auth/viewer";
import { getCommentsView } from "@/lib/comments/queries";
import { formatDateTime } from "@/lib/format";
import { CommentForm } from "@/components/comments/comment-form";
import { DeleteCommentButton } from "@/components/comments/delete-comment-button";

/**
 * The event page's comments: list (newest first) and form. Server-rendered; identities are removed
 * in lib/privacy before anything reaches this component, so hidden names never enter the HTML or
 * the RSC payload.
 */
export async function CommentsSection({ campaign, now }: { campaign: { id: string }; now?: number | Date }) {
  const campaignId = campaign.id;
  const viewer = await getViewer();
  const view = await getCommentsView(campaignId, viewer, now === undefined ? new Date() : new Date(now));
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
            <li key={c.key} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
              <div className="flex flex-wrap items-center gap-x-2 gap-y-1">
                <span
                  className={`min-w-0 break-all font-semibold ${c.anonymous ? "italic text-slate-600" : "text-slate-900"}`}
                  data-testid="comment-author"
                >
                  {c.label}
                </span>
                {c.isOrganizer && (
                  <span className="rounded-full bg-emerald-50 px-2 py-0.5 text-xs font-semibold text-emerald-800 ring-1 ring-inset ring-emerald-200">
                    Organizer
                  </span>
                )}
                {c.isViewer && (
                  <span className="rounded-full bg-brand-50 px-2 py-0.5 text-xs font-semibold text-brand-700 ring-1 ring-inset ring-brand-100">
                    You
                  </span>
                )}
                <time dateTime={c.createdAt.toISOString()} className="text-xs text-slate-500">
                  {formatDateTime(c.createdAt)}
                </time>
                {view.canDelete && (
                  <span className="ml-auto">
                    <DeleteCommentButton commentId={c.id} />
                  </span>
                )}
              </div>
              <p className="mt-2 whitespace-pre-line break-words text-slate-800">{c.text}</p>
            </li>
          ))}
        </ul>
      )}
      {total > comments.length && (
        <p className="mt-3 text-sm text-slate-500">Showing the newest {comments.length} of {total} comments.</p>
      )}
    </section>
  );
}
