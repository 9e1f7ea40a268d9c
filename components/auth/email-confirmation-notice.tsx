"use client";

import { useState, useTransition } from "react";
import type { ActionResult } from "@/lib/actions";

/** On the profile while the address is unconfirmed: what it means, and a button to send the link again. */
export function EmailConfirmationNotice({
  resendAction,
}: {
  resendAction: () => Promise<ActionResult<{ message: string }>>;
}) {
  const [message, setMessage] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, start] = useTransition();
  return (
    <div
      role="region"
      aria-label="Email confirmation"
      className="rounded-xl border border-amber-200 bg-amber-50 p-4 text-sm text-amber-900"
    >
      <p className="font-semibold">Please confirm your email address.</p>
      <p className="mt-1">
        We sent you a link when you signed up. Follow it to confirm that this address is yours and choose your
        password.
      </p>
      <button
        type="button"
        disabled={busy}
        className="mt-3 rounded-lg bg-white px-3 py-1.5 font-semibold text-amber-900 ring-1 ring-amber-300 hover:bg-amber-100 disabled:opacity-70"
        onClick={() =>
          start(async () => {
            const res = await resendAction().catch(() => null);
            setMessage(
              res?.ok
                ? { ok: true, text: res.data.message }
                : {
                    ok: false,
                    text: res && !res.ok ? res.error : "Could not send the email. Please try again.",
                  },
            );
          })
        }
      >
        {busy ? "Sending..." : "Resend confirmation email"}
      </button>
      {message && (
        <p role={message.ok ? "status" : "alert"} className="mt-2">
          {message.text}
        </p>
      )}
    </div>
  );
}
