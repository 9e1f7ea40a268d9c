"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";

export function DeleteCommentButton({
  commentId,
  onDeleted,
}: {
  commentId: string;
  onDeleted?: (id: string) => void;
}) {
  const { deleteCommentAction } = useServerActions();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  function remove() {
    if (!window.confirm("Delete this comment? This cannot be undone.")) return;
    setError(null);
    startTransition(async () => {
      try {
        const result = await deleteCommentAction({ commentId });
        if (!result.ok) setError(result.error);
        else {
          onDeleted?.(commentId);
          router.refresh();
        }
      } catch {
        setError("Error deleting comment. Please try again.");
      }
    });
  }

  return (
    <span className="inline-flex items-center gap-2">
      {error && (
        <span role="alert" className="text-xs text-red-600">
          {error}
        </span>
      )}
      <button
        type="button"
        onClick={remove}
        disabled={pending}
        className="rounded-md px-2 py-1 text-xs font-semibold text-red-700 hover:bg-red-50 disabled:text-slate-400"
      >
        {pending ? "Deleting…" : "Delete"}
      </button>
    </span>
  );
}
