"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Modal } from "@/components/ui/modal";

/** The organizer's "Cancel event" button with its confirmation (the server checks who may cancel). */
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
  const [error, setError] = useState<string | null>(null);
  const [pending, startTransition] = useTransition();

  function cancel() {
    setError(null);
    startTransition(async () => {
      try {
        const r = await cancelCampaignAction({ campaignId });
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
        <Modal title="Cancel this event?" onClose={() => !pending && setOpen(false)} size="sm">
          <div className="space-y-3 text-sm text-slate-700">
            <p>
              {confirmed
                ? "The event is confirmed: every attendee who was charged gets a full refund to their card."
                : "Nobody has been charged: nobody will be, and saved cards are released."}
            </p>
            <p>
              {committers === 1 ? "The 1 person" : `All ${committers} people`} who committed will be emailed.
              This cannot be undone.
            </p>
            {error && (
              <p role="alert" className="text-red-600">
                {error}
              </p>
            )}
            <div className="flex flex-col-reverse gap-2 pt-2 sm:flex-row sm:justify-end">
              <Button variant="secondary" onClick={() => setOpen(false)} disabled={pending}>
                Keep the event
              </Button>
              <Button variant="danger" onClick={cancel} disabled={pending}>
                {pending ? "Cancelling…" : "Cancel event"}
              </Button>
            </div>
          </div>
        </Modal>
      )}
    </>
  );
}
