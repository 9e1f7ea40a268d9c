"use client";

import { useId, useState } from "react";
import { Button } from "@/components/ui/button";
import { Field, Textarea } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { REJECT_TEXT } from "@/lib/campaigns/texts";
import { REJECT_REASON_MAX } from "@/lib/campaigns/limits";

/**
 * Reject, confirmed with a reason for the organizer (issue 19). Loaded only when an admin presses
 * Reject (components/campaigns/approval-buttons.tsx), so the pages that show the button stay light.
 */
export default function RejectDialog({
  campaignTitle,
  pending,
  error,
  onReject,
  onClose,
}: {
  campaignTitle?: string;
  pending: boolean;
  /** the server's refusal, if any */
  error: string | null;
  onReject: (reason: string) => void;
  onClose: () => void;
}) {
  const reasonId = useId();
  const [reason, setReason] = useState("");
  const [localError, setLocalError] = useState<string | null>(null);
  const shown = localError ?? error;

  const submit = (e: React.FormEvent) => {
    e.preventDefault();
    const why = reason.trim();
    if (!why) return setLocalError(REJECT_TEXT.reasonRequired);
    if (why.length > REJECT_REASON_MAX) return setLocalError(REJECT_TEXT.reasonTooLong);
    setLocalError(null);
    onReject(why);
  };

  return (
    <Modal
      title={campaignTitle ? `Reject "${campaignTitle}"?` : "Reject this event?"}
      onClose={onClose}
      size="sm"
      dismissible={!pending}
    >
      <form onSubmit={submit} noValidate>
        <p className="text-sm text-slate-700">
          The event is hidden from everyone but its organizer and admins, and the organizer is emailed your
          reason.
        </p>
        <div className="mt-4">
          <Field
            id={reasonId}
            label="Reason (sent to the organizer)"
            error={shown ?? undefined}
            hint={`${reason.trim().length} / ${REJECT_REASON_MAX} characters`}
          >
            <Textarea
              id={reasonId}
              rows={4}
              value={reason}
              invalid={Boolean(shown)}
              onChange={(e) => setReason(e.target.value)}
            />
          </Field>
        </div>
        <div className="mt-6 flex justify-end gap-3">
          <Button type="button" variant="secondary" onClick={onClose} disabled={pending}>
            Cancel
          </Button>
          <Button type="submit" variant="danger" disabled={pending}>
            {pending ? "Rejecting..." : "Reject event"}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
