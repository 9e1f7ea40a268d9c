"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useId, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { inputClass } from "@/components/ui/field";
import { UPDATE_MAX } from "@/lib/updates/limits";

// The shared zod schema (and zod) is fetched when the organizer starts writing, not with the page.
const loadSchema = () => import("@/lib/updates/schema").then((m) => m.updateTextSchema);

export function UpdateForm({
  campaignId,
  remainingToday,
  committers,
}: {
  campaignId: string;
  remainingToday: number;
  committers: number;
}) {
  const { postUpdateAction } = useServerActions();
  const id = useId();
  const router = useRouter();
  const [text, setText] = useState("");
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [pending, startTransition] = useTransition();
  const blank = text.trim().length === 0;

  function submit(e: React.FormEvent) {
    e.preventDefault();
    startTransition(async () => {
      try {
        const parsed = (await loadSchema()).safeParse(text);
        if (!parsed.success) {
          setMessage({
            ok: false,
            text: parsed.error.issues[0]?.message ?? "Error posting update. Please try again.",
          });
          return;
        }
        const r = await postUpdateAction({ campaignId, text: parsed.data });
        if (!r.ok) return setMessage({ ok: false, text: r.error });
        setText("");
        setMessage({
          ok: true,
          text:
            r.data.emailed === 1
              ? "Update posted and emailed to 1 committer."
              : `Update posted and emailed to ${r.data.emailed} committers.`,
        });
        router.refresh();
      } catch {
        setMessage({ ok: false, text: "Error posting update. Please try again." });
      }
    });
  }

  return (
    <form onSubmit={submit} noValidate className="space-y-2">
      <label htmlFor={`${id}-text`} className="block text-sm font-semibold text-slate-800">
        Post an update to everyone who committed
      </label>
      <textarea
        id={`${id}-text`}
        rows={3}
        maxLength={UPDATE_MAX}
        value={text}
        onFocus={() => void loadSchema()}
        onChange={(e) => {
          setText(e.target.value);
          setMessage(null);
        }}
        className={`${inputClass} resize-y`}
        placeholder="Venue details, a change of plan, a thank-you…"
      />
      <div className="flex flex-wrap items-center gap-3">
        <span className="text-xs text-slate-500">
          {text.length}/{UPDATE_MAX} · {remainingToday} of 3 left today · goes to {committers}{" "}
          {committers === 1 ? "committer" : "committers"}
        </span>
        <Button
          type="submit"
          size="sm"
          className="ml-auto"
          disabled={blank || pending || remainingToday === 0}
        >
          {pending ? "Posting…" : "Post update"}
        </Button>
      </div>
      {message && (
        <p
          role={message.ok ? "status" : "alert"}
          className={`text-sm ${message.ok ? "text-emerald-700" : "text-red-600"}`}
        >
          {message.text}
        </p>
      )}
    </form>
  );
}
