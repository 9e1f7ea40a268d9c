"use client";

import { useEffect, useRef, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Cover } from "@/components/campaigns/cover";
import { COVER_MAX_BYTES } from "@/lib/images/limits";
import { COVER_TEXTS } from "@/lib/images/texts";

const failureKey = (campaignId: string) => `pactnexus:cover-failed:${campaignId}`;

/**
 * The create wizard's cover did not take once the event existed (issue 34): the manage page, where
 * the wizard sends the organizer then, says why. Kept in this tab's session storage, not the URL, so
 * no link can put words on the page.
 */
export function rememberCoverFailure(campaignId: string, reason: string) {
  try {
    sessionStorage.setItem(failureKey(campaignId), reason);
  } catch {
    // storage unavailable: the manage page shows the cover control without the reason
  }
}

function takeCoverFailure(campaignId: string): string | null {
  try {
    const reason = sessionStorage.getItem(failureKey(campaignId));
    sessionStorage.removeItem(failureKey(campaignId));
    return reason;
  } catch {
    return null;
  }
}

/**
 * The organizer's cover control on the manage page (issue 17): choose a JPEG, PNG or WebP up to
 * 5 MB; it is uploaded to the cover route, which checks it again by its content and keeps a cleaned
 * WebP copy. The size is checked here first only to spare a long upload.
 */
export function CoverUpload({
  campaignId,
  title,
  coverId,
}: {
  campaignId: string;
  title: string;
  coverId: string | null;
}) {
  const router = useRouter();
  const input = useRef<HTMLInputElement>(null);
  const [notice, setNotice] = useState<{ tone: "ok" | "error"; text: string } | null>(null);
  const [busy, startTransition] = useTransition();
  useEffect(() => {
    const reason = takeCoverFailure(campaignId);
    // Runs once on arrival from the create wizard: shows why its cover did not upload.
    if (reason)
      // eslint-disable-next-line react-hooks/set-state-in-effect
      setNotice({
        tone: "error",
        text: `Your event was created, but its cover did not upload: ${reason} Please choose it again.`,
      });
  }, [campaignId]);

  const send = (method: "POST" | "DELETE", body?: FormData) =>
    startTransition(async () => {
      try {
        const res = await fetch(`/api/campaigns/${campaignId}/cover`, { method, body });
        const data = (await res.json().catch(() => null)) as {
          message?: string;
          error?: { message?: string };
        } | null;
        if (!res.ok) {
          setNotice({ tone: "error", text: data?.error?.message ?? COVER_TEXTS.notImage });
          return;
        }
        setNotice({ tone: "ok", text: data?.message ?? COVER_TEXTS.saved });
        router.refresh();
      } catch {
        setNotice({ tone: "error", text: "The upload did not go through. Please try again." });
      } finally {
        if (input.current) input.current.value = "";
      }
    });

  const onFile = (file: File | undefined) => {
    setNotice(null);
    if (!file) return;
    if (file.size > COVER_MAX_BYTES) {
      setNotice({ tone: "error", text: COVER_TEXTS.tooBig });
      if (input.current) input.current.value = "";
      return;
    }
    const form = new FormData();
    form.set("file", file);
    send("POST", form);
  };

  return (
    <section
      aria-labelledby="cover-heading"
      className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm"
    >
      <h2 id="cover-heading" className="text-lg font-bold text-slate-900">
        Cover image
      </h2>
      <p className="mt-1 text-sm text-slate-600">
        JPEG, PNG or WebP, up to 5 MB. Location and camera details are removed from the copy we keep.
      </p>
      <div className="mt-4 grid gap-4 sm:grid-cols-[16rem_1fr] sm:items-center">
        <Cover id={campaignId} title={title} coverId={coverId} sizes="16rem" className="rounded-lg" />
        <div className="flex flex-wrap gap-2">
          <label
            className={`inline-flex cursor-pointer items-center justify-center rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-600 ${busy ? "pointer-events-none opacity-60" : ""}`}
          >
            {busy ? "Uploading..." : coverId ? "Replace image" : "Upload image"}
            <input
              ref={input}
              type="file"
              name="file"
              accept="image/jpeg,image/png,image/webp"
              className="sr-only"
              disabled={busy}
              onChange={(e) => onFile(e.target.files?.[0])}
            />
          </label>
          {coverId && (
            <Button variant="secondary" disabled={busy} onClick={() => send("DELETE")}>
              Remove
            </Button>
          )}
        </div>
      </div>
      {notice && (
        <p
          role={notice.tone === "error" ? "alert" : "status"}
          className={`mt-3 rounded-lg px-3 py-2 text-sm ${notice.tone === "error" ? "bg-red-50 text-red-700" : "bg-emerald-50 text-emerald-800"}`}
        >
          {notice.text}
        </p>
      )}
    </section>
  );
}
