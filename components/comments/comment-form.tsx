"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useId, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { COMMENT_MAX } from "@/lib/comments/limits";

// The shared zod schema (and zod) is fetched when the viewer starts writing, not with the event page.
const loadSchema = () => import("@/lib/comments/schema").then((m) => m.commentTextSchema);

export function CommentForm({ campaignId }: { campaignId: string }) {
  const { postCommentAction } = useServerActions();
  const id = useId();
  const router = useRouter();
  const [text, setText] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();
  const blank = text.trim().length === 0;
  const length = text.length;
  const over = text.trim().length > COMMENT_MAX;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    startTransition(async () => {
      try {
        const parsed = (await loadSchema()).safeParse(text);
        if (!parsed.success) {
          setError(parsed.error.issues[0]?.message ?? "Error posting comment. Please try again.");
          return;
        }
        setError(null);
        const result = await postCommentAction({ campaignId, text: parsed.data });
        if (!result.ok) {
          setError(result.error);
          return;
        }
        setText("");
        router.refresh();
      } catch {
        setError("Error posting comment. Please try again.");
      }
    });
  }

  return (
    <form onSubmit={submit} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm" noValidate>
      <label htmlFor={`${id}-text`} className="block text-sm font-semibold text-slate-800">
        Add a comment
      </label>
      <textarea
        id={`${id}-text`}
        name="text"
        rows={3}
        maxLength={COMMENT_MAX}
        value={text}
        onFocus={() => void loadSchema()}
        onChange={(e) => {
          setText(e.target.value);
          if (error) setError(null);
        }}
        placeholder="Share a thought or ask the organizer a question…"
        className={`${inputClass} mt-2 resize-y`}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${id}-count${error ? ` ${id}-error` : ""}`}
      />
      <div className="mt-2 flex flex-wrap items-center gap-3">
        <span
          id={`${id}-count`}
          aria-live="polite"
          className={`text-xs ${over ? "text-red-600" : "text-slate-500"}`}
        >
          {length}/{COMMENT_MAX}
        </span>
        <Button type="submit" size="sm" className="ml-auto" disabled={blank || over || pending}>
          {pending ? "Posting…" : "Post"}
        </Button>
      </div>
      {error && (
        <p id={`${id}-error`} role="alert" className="mt-2 text-sm text-red-600">
          {error}
        </p>
      )}
    </form>
  );
}
