"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useServerActions } from "@/components/actions/server-actions";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/**
 * The early go-ahead (issue 21): offered to an organizer who opted in at creation, from 80% of the
 * goal and before the deadline. The dialog names the count and what each pays; the server checks
 * everything again under the campaign lock, including that the count is still the one named.
 */
export function GoAheadButton({
  campaignId,
  members,
  goal,
  priceText,
}: {
  campaignId: string;
  members: number;
  goal: number;
  /** "$12.00", or null for a free event */
  priceText: string | null;
}) {
  const { goAheadAction } = useServerActions();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function confirm() {
    setBusy(true);
    setError(null);
    const res = await goAheadAction({ campaignId, members }).catch(() => null);
    setBusy(false);
    if (!res?.ok) return setError(res?.error ?? "Could not go ahead. Please try again.");
    setOpen(false);
    router.refresh();
  }

  return (
    <div className="rounded-lg border border-emerald-200 bg-emerald-50 p-4">
      <p className="font-semibold text-emerald-900">You may go ahead now</p>
      <p className="mt-1 text-sm text-emerald-900">
        {members} of the {goal} people are in: at least 80% of the goal, as you allowed when you created the
        event.
      </p>
      <Button className="mt-3" size="sm" variant="positive" onClick={() => (setError(null), setOpen(true))}>
        Go ahead with {members} people
      </Button>
      {open && (
        <ConfirmDialog
          title="Go ahead with the event?"
          error={error}
          busy={busy}
          cancelLabel="Not yet"
          confirmLabel={`Go ahead with ${members}`}
          busyLabel="Confirming..."
          tone="positive"
          onCancel={() => setOpen(false)}
          onConfirm={() => void confirm()}
        >
          <p>
            The event is confirmed with {members} people instead of {goal}.{" "}
            {priceText
              ? `Each of them is charged ${priceText} now, as when a goal is met, and told that you chose to go ahead.`
              : "It is free: everyone counted is told it is happening and that you chose to go ahead."}
          </p>
          <p className="text-sm">This can&apos;t be undone, except by cancelling the event (with refunds).</p>
        </ConfirmDialog>
      )}
    </div>
  );
}
