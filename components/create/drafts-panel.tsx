"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { DraftView } from "@/components/create/draft-view";
import { DRAFT_SNIPPET_LENGTH } from "@/lib/campaigns/limits";
import { formatDate } from "@/lib/format";

const snippet = (text: string | null) => {
  if (!text) return "";
  return text.length > DRAFT_SNIPPET_LENGTH ? `${text.slice(0, DRAFT_SNIPPET_LENGTH)}...` : text;
};

/** "Your Drafts": collapsible on small screens, always open beside the form on large ones. */
export function DraftsPanel({
  drafts,
  activeId,
  busy,
  onLoad,
  onDelete,
}: {
  drafts: DraftView[];
  activeId: string | null;
  busy: boolean;
  onLoad: (d: DraftView) => void;
  onDelete: (d: DraftView) => void;
}) {
  const [open, setOpen] = useState(false);
  return (
    <aside aria-labelledby="drafts-heading" className="rounded-xl border border-slate-200 bg-white shadow-sm">
      <button
        type="button"
        className="flex w-full items-center justify-between px-5 py-4 text-left lg:pointer-events-none"
        aria-expanded={open}
        aria-controls="drafts-list"
        onClick={() => setOpen((o) => !o)}
      >
        <h2 id="drafts-heading" className="font-semibold text-slate-900">
          Your Drafts <span className="text-sm font-normal text-slate-500">({drafts.length})</span>
        </h2>
        <span aria-hidden className="text-slate-500 lg:hidden">
          {open ? "▲" : "▼"}
        </span>
      </button>
      <div
        id="drafts-list"
        className={`${open ? "block" : "hidden"} border-t border-slate-100 px-5 py-4 lg:block`}
      >
        {drafts.length === 0 ? (
          <p className="text-sm text-slate-500">No drafts yet. Use Save Draft to keep your progress.</p>
        ) : (
          <ul className="space-y-3">
            {drafts.map((d) => (
              <li
                key={d.id}
                className={`rounded-lg border p-3 ${d.id === activeId ? "border-brand-500 bg-brand-50" : "border-slate-200"}`}
              >
                <p className="font-medium wrap-anywhere text-slate-900">{d.title || "Untitled Draft"}</p>
                {d.description && (
                  <p className="mt-0.5 text-sm wrap-anywhere text-slate-600">{snippet(d.description)}</p>
                )}
                <p className="mt-1 text-xs text-slate-500">
                  {formatDate(d.updatedAt)}
                  {d.goal !== null && ` · Goal: ${d.goal}`}
                </p>
                <div className="mt-2 flex gap-2">
                  <Button size="sm" variant="secondary" onClick={() => onLoad(d)} disabled={busy}>
                    Load Draft
                  </Button>
                  <Button
                    size="sm"
                    variant="ghost"
                    className="text-red-600"
                    onClick={() => onDelete(d)}
                    disabled={busy}
                    aria-label={`Delete draft ${d.title || "Untitled Draft"}`}
                  >
                    Delete
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </div>
    </aside>
  );
}
