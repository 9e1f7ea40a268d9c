"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";
import { CANCEL_REASON_MAX, CANCEL_TEXTS } from "@/lib/cancellation/texts";

/**
 * The organizer's "Cancel event" button: it asks first (ConfirmDialog, issue 34), with an optional
 * reason shown to backers. The server checks who may cancel and the reason's length.
 */
export function CancelEvent({
  campaignId,
  confirmed,
  committers,
}: {
  campaignId: string;
  confirmed: boolean;
  committers: number;
}) {
  const { cancelCampaignAction } = useServerActions();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function cancel() {
    setError(null);
    startTransition(async () => {
      try {
        const r = await cancelCampaignAction({ campaignId, reason: reason.trim() || undefined });
        if (!r.ok) return setError(r.error);
        setOpen(false);
        router.refresh();
      } catch {
        setError("Error cancelling the event. Please try again.");
      }
    });
  }

  return (
    <>
      <Button variant="secondary" className="w-full text-red-700" onClick={() => setOpen(true)}>
        Cancel event
      </Button>
      {open && (
        <ConfirmDialog
          title="Cancel this event?"
          error={error}
          busy={pending}
          cancelLabel="Keep the event"
          confirmLabel="Cancel event"
          busyLabel="Cancelling…"
          onCancel={() => setOpen(false)}
          onConfirm={cancel}
        >
          <div className="space-y-3 text-sm">
            <p>
              {confirmed
                ? "The event is confirmed: every attendee who was charged gets a full refund to their card."
                : "Nobody has been charged: nobody will be, and saved cards are released."}
            </p>
            <p>
              {committers === 1 ? "The 1 person" : `All ${committers} people`} who committed will be emailed.
              This cannot be undone.
            </p>
            <label className="block">
              <span className="font-medium text-slate-900">{CANCEL_TEXTS.reasonLabel}</span>
              <textarea
                name="reason"
                value={reason}
                onChange={(e) => setReason(e.target.value)}
                maxLength={CANCEL_REASON_MAX}
                rows={3}
                className="mt-1 block w-full rounded-lg border border-slate-300 px-3 py-2 text-sm focus:border-brand-500 focus:outline-none focus:ring-2 focus:ring-brand-200"
              />
              <span className="mt-1 block text-xs text-slate-500">
                {reason.length}/{CANCEL_REASON_MAX}
              </span>
            </label>
          </div>
        </ConfirmDialog>
      )}
    </>
  );
}
