"use client";

import { useState } from "react";
import { useRouter } from "next/navigation";
import { useServerActions } from "@/components/actions/server-actions";
import { Button } from "@/components/ui/button";
import { ConfirmDialog } from "@/components/ui/confirm-dialog";

/**
 * An admin holds an event's payout with a reason (fraud, a dispute), or releases a held one (issue
 * 23). The rule — admins only, a reason of 1 to 500 characters — is lib/payouts/service setPayoutHold.
 * Releasing moves money that cannot be called back in one click, so it asks first (issue 34).
 */
export function HoldPayout({
  campaignId,
  title,
  held,
}: {
  campaignId: string;
  title: string;
  held: boolean;
}) {
  const { setPayoutHoldAction } = useServerActions();
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [reason, setReason] = useState("");
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function submit(next: string | null) {
    setBusy(true);
    setError(null);
    const res = await setPayoutHoldAction({ campaignId, reason: next }).catch(() => null);
    setBusy(false);
    if (!res?.ok) return setError(res?.error ?? "Error updating the payout hold. Please try again.");
    setOpen(false);
    setReason("");
    router.refresh();
  }

  if (held)
    return (
      <span className="flex flex-col items-end gap-1">
        <Button size="sm" variant="secondary" disabled={busy} onClick={() => setOpen(true)}>
          Release payout
        </Button>
        {open && (
          <ConfirmDialog
            title="Release this payout?"
            error={error}
            busy={busy}
            cancelLabel="Keep it held"
            confirmLabel="Release payout"
            busyLabel="Releasing..."
            tone="primary"
            onCancel={() => {
              setOpen(false);
              setError(null);
            }}
            onConfirm={() => void submit(null)}
          >
            <p className="text-sm">
              The money of &quot;{title}&quot; is transferred to its organizer on the next payout run. A
              transfer cannot be called back from here.
            </p>
          </ConfirmDialog>
        )}
      </span>
    );
  if (!open)
    return (
      <Button size="sm" variant="secondary" onClick={() => setOpen(true)}>
        Hold payout
      </Button>
    );
  return (
    <form
      className="flex w-full flex-col gap-2 sm:max-w-md"
      onSubmit={(e) => {
        e.preventDefault();
        void submit(reason);
      }}
    >
      <label htmlFor={`hold-${campaignId}`} className="text-sm font-medium text-slate-700">
        Why hold the payout of &quot;{title}&quot;?
      </label>
      <textarea
        id={`hold-${campaignId}`}
        value={reason}
        maxLength={500}
        rows={2}
        required
        onChange={(e) => setReason(e.target.value)}
        className="rounded-lg border border-slate-300 px-3 py-2 text-sm"
      />
      {error && (
        <p role="alert" className="text-sm text-red-700">
          {error}
        </p>
      )}
      <span className="flex justify-end gap-2">
        <Button size="sm" variant="secondary" type="button" onClick={() => setOpen(false)} disabled={busy}>
          Cancel
        </Button>
        <Button size="sm" type="submit" disabled={busy || reason.trim().length === 0}>
          {busy ? "Holding..." : "Hold payout"}
        </Button>
      </span>
    </form>
  );
}
