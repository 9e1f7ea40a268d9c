import { formatDateTime } from "@/lib/format";
import type { PresentedComment } from "@/lib/comments/queries";
import { DeleteCommentButton } from "@/components/comments/delete-comment-button";

/**
 * One comment as the event page shows it. Rendered on the server for the first page and in the
 * browser for the ones "Show more comments" adds, so both look the same. Its identity fields were
 * already decided by lib/privacy.
 */
export function CommentItem({
  comment: c,
  canDelete,
  onDeleted,
}: {
  comment: PresentedComment;
  canDelete: boolean;
  onDeleted?: (id: string) => void;
}) {
  const at = new Date(c.createdAt);
  return (
    <li className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
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
        <time dateTime={at.toISOString()} className="text-xs text-slate-500" suppressHydrationWarning>
          {formatDateTime(at)}
        </time>
        {canDelete && (
          <span className="ml-auto">
            <DeleteCommentButton commentId={c.id} onDeleted={onDeleted} />
          </span>
        )}
      </div>
      <p className="mt-2 whitespace-pre-line wrap-anywhere text-slate-800">{c.text}</p>
    </li>
  );
}
