"use client";

import { useState } from "react";

/** Web Share API where the browser has it (phones); otherwise copies the link. */
export function ShareButton({
  url,
  title,
  className = "",
}: {
  url: string;
  title: string;
  className?: string;
}) {
  const [note, setNote] = useState<string | null>(null);

  async function share() {
    setNote(null);
    const nav = navigator as Navigator & { share?: (d: ShareData) => Promise<void> };
    if (typeof nav.share === "function") {
      try {
        await nav.share({ title, text: `Join me: "${title}" only happens if enough people commit.`, url });
        return;
      } catch (err) {
        if ((err as DOMException)?.name === "AbortError") return; // the person closed the share sheet
      }
    }
    try {
      await navigator.clipboard.writeText(url);
      setNote("Link copied!");
    } catch {
      setNote(`Copy this link: ${url}`);
    }
  }

  return (
    <div className={className}>
      <button
        type="button"
        onClick={share}
        className="inline-flex w-full items-center justify-center gap-2 rounded-lg border border-slate-300 bg-white px-4 py-2 text-sm font-semibold text-slate-800 hover:bg-slate-50"
      >
        <svg aria-hidden viewBox="0 0 20 20" className="h-4 w-4" fill="currentColor">
          <path d="M13 4.5a2.5 2.5 0 1 1 .7 1.74L7.9 9.2a2.5 2.5 0 0 1 0 1.6l5.8 2.96a2.5 2.5 0 1 1-.7 1.34l-5.8-2.96a2.5 2.5 0 1 1 0-4.28l5.8-2.96A2.5 2.5 0 0 1 13 4.5Z" />
        </svg>
        Share
      </button>
      {note && (
        <p role="status" className="mt-2 break-all text-center text-xs text-emerald-700">
          {note}
        </p>
      )}
    </div>
  );
}
