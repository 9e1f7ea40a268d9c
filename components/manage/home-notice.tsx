"use client";

import Link from "next/link";
import { useEffect, useState } from "react";
import {
  ACCESS_TEXTS,
  EVENT_NOT_FOUND_NOTICE,
  MANAGE_DENIED_NOTICE,
  NOTICE_TEXTS,
  SIGN_IN_TO_CREATE_NOTICE,
} from "@/lib/access/texts";

/** Messages a redirect to home may carry as `?notice=<code>`; unknown codes show nothing. */
const NOTICES: Record<string, { text: string; info?: true; link?: { href: string; label: string } }> = {
  [MANAGE_DENIED_NOTICE]: { text: ACCESS_TEXTS.manageDenied },
  [EVENT_NOT_FOUND_NOTICE]: { text: NOTICE_TEXTS.eventNotFound },
  [SIGN_IN_TO_CREATE_NOTICE]: {
    text: NOTICE_TEXTS.signInToCreate,
    info: true, // a way forward, not an error
    link: { href: `/profile?next=${encodeURIComponent("/create-campaign")}`, label: "Sign in" },
  },
};

/**
 * A one-time notice on the home page after a redirect (e.g. from a manage page the viewer may not
 * open). The code is removed from the address bar so a reload or a shared link does not repeat it.
 */
export function HomeNotice({ notice }: { notice: unknown }) {
  const message = typeof notice === "string" ? NOTICES[notice] : undefined;
  const [open, setOpen] = useState(true);
  useEffect(() => {
    if (!message) return;
    const url = new URL(window.location.href);
    url.searchParams.delete("notice");
    window.history.replaceState(window.history.state, "", url.pathname + url.search + url.hash);
  }, [message]);
  if (!message || !open) return null;
  return (
    <div className="mx-auto max-w-6xl px-4 pt-4">
      <div
        role="alert"
        className={`flex items-start justify-between gap-3 rounded-xl border px-4 py-3 text-sm ${
          message.info
            ? "border-brand-100 bg-brand-50 text-slate-800"
            : "border-red-200 bg-red-50 text-red-800"
        }`}
      >
        <p>
          {message.text}
          {message.link && (
            <>
              {" "}
              <Link href={message.link.href} className="font-semibold underline">
                {message.link.label}
              </Link>
            </>
          )}
        </p>
        <button
          type="button"
          onClick={() => setOpen(false)}
          aria-label="Dismiss"
          className={`-my-1 rounded px-2 text-lg leading-none ${
            message.info ? "text-brand-700 hover:bg-brand-100" : "text-red-700 hover:bg-red-100"
          }`}
        >
          ×
        </button>
      </div>
    </div>
  );
}
