"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useState, useTransition } from "react";
import type { PresentedComment } from "@/lib/comments/queries";
import { CommentItem } from "@/components/comments/comment-item";
import { LoadMore } from "@/components/ui/load-more";

const LOAD_FAILED = "Could not load more comments. Please try again.";

/**
 * "Show more comments": the page renders the newest comments on the server; older ones are asked
 * for a page at a time (the server applies the same privacy rules) and appended here.
 */
export function MoreComments({
  campaignId,
  shown,
  total,
  canDelete,
}: {
  campaignId: string;
  shown: number;
  total: number;
  canDelete: boolean;
}) {
  const { loadMoreCommentsAction } = useServerActions();
  const [more, setMore] = useState<PresentedComment[]>([]);
  const [latestTotal, setLatestTotal] = useState(total);
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const remaining = Math.max(0, latestTotal - shown - more.length);

  function load() {
    setError(null);
    startTransition(async () => {
      try {
        const result = await loadMoreCommentsAction({ campaignId, offset: shown + more.length });
        if (!result.ok) return setError(result.error);
        setLatestTotal(result.data.total);
        // New comments arriving meanwhile shift older ones down a page: never list one twice.
        setMore((prev) => {
          const seen = new Set(prev.map((c) => c.key));
          return [...prev, ...result.data.comments.filter((c) => !seen.has(c.key))];
        });
      } catch {
        setError(LOAD_FAILED);
      }
    });
  }

  return (
    <>
      {more.length > 0 && (
        <ul className="mt-3 space-y-3" aria-label="Older comments">
          {more.map((c) => (
            <CommentItem
              key={c.key}
              comment={c}
              canDelete={canDelete}
              onDeleted={(id) => setMore((prev) => prev.filter((x) => x.id !== id))}
            />
          ))}
        </ul>
      )}
      {remaining > 0 && (
        <LoadMore
          label={`Show more comments (${remaining} more)`}
          pending={pending}
          error={error}
          onClick={load}
          className="rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 shadow-sm hover:bg-slate-50"
        />
      )}
    </>
  );
}
