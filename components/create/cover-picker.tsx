"use client";

import { useEffect, useMemo, useRef } from "react";
import { Button } from "@/components/ui/button";
import { COVER_MAX_BYTES } from "@/lib/images/limits";
import { COVER_TEXTS } from "@/lib/images/texts";

const TYPES = ["image/jpeg", "image/png", "image/webp"];

/**
 * The cover in the create wizard (issue 34 item 6). The event does not exist yet, so the file waits
 * here and is sent to the same cover route as the manage page's control (app/api/campaigns/[id]/
 * cover, lib/images: checked again by its content, cleaned, kept as WebP) once the event is
 * created. Drafts do not keep it. The size and type are checked here first only to spare an upload.
 */
export function CoverPicker({
  file,
  onChange,
  error,
  onError,
}: {
  file: File | null;
  onChange: (file: File | null) => void;
  error: string | null;
  onError: (message: string | null) => void;
}) {
  const input = useRef<HTMLInputElement>(null);
  const preview = useMemo(() => (file ? URL.createObjectURL(file) : null), [file]);
  useEffect(() => () => void (preview && URL.revokeObjectURL(preview)), [preview]);

  const pick = (f: File | undefined) => {
    onError(null);
    if (!f) return;
    if (input.current) input.current.value = "";
    if (!TYPES.includes(f.type)) return onError(COVER_TEXTS.notImage);
    if (f.size > COVER_MAX_BYTES) return onError(COVER_TEXTS.tooBig);
    onChange(f);
  };

  return (
    <section aria-labelledby="cover-pick" className="space-y-3 rounded-lg border border-slate-200 p-4">
      <div>
        <h2 id="cover-pick" className="font-semibold text-slate-800">
          Cover image (optional)
        </h2>
        <p className="text-sm text-slate-600">
          JPEG, PNG or WebP, up to 5 MB. It is uploaded when you create the event (drafts do not keep it);
          location and camera details are removed from the copy we keep.
        </p>
      </div>
      {preview && (
        // eslint-disable-next-line @next/next/no-img-element -- a local preview (blob URL) of the chosen file
        <img src={preview} alt="" className="aspect-[3/1] w-full max-w-md rounded-lg object-cover" />
      )}
      <div className="flex flex-wrap items-center gap-2">
        <label className="inline-flex cursor-pointer items-center justify-center rounded-lg bg-white px-4 py-2 text-sm font-semibold text-brand-700 ring-1 ring-inset ring-brand-200 hover:bg-brand-50 focus-within:outline-2 focus-within:outline-offset-2 focus-within:outline-brand-600">
          {file ? "Choose another image" : "Choose an image"}
          <input
            ref={input}
            type="file"
            name="cover"
            accept={TYPES.join(",")}
            className="sr-only"
            onChange={(e) => pick(e.target.files?.[0])}
          />
        </label>
        {file && (
          <>
            <span className="min-w-0 truncate text-sm text-slate-600">{file.name}</span>
            <Button variant="ghost" size="sm" onClick={() => onChange(null)}>
              Remove
            </Button>
          </>
        )}
      </div>
      {error && (
        <p role="alert" className="rounded-lg bg-red-50 px-3 py-2 text-sm text-red-700">
          {error}
        </p>
      )}
    </section>
  );
}
