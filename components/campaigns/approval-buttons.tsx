"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useCallback, useId, useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { Field, Textarea } from "@/components/ui/field";
import { Modal } from "@/components/ui/modal";
import { APPROVAL_ERROR, REJECT_TEXT } from "@/lib/campaigns/texts";
import { REJECT_REASON_MAX } from "@/lib/campaigns/limits";
import { isApproved } from "@/lib/access/rules";

/**
 * Approve / Reject (or Re-approve) buttons for admins. Reject asks to confirm, with a reason that
 * is emailed to the organizer; an event that has tipped offers no Reject (`rejectable`, decided by
 * the campaign core on the server: it is cancelled with refunds instead). The server action checks
 * the role and the state again; hiding these buttons from others is only a convenience.
 */
export function ApprovalButtons({
  campaignId,
  approvalStatus,
  rejectable,
  size = "sm",
  campaignTitle,
}: {
  campaignId: string;
  approvalStatus: "pending" | "approved" | "rejected";
  rejectable: boolean;
  size?: "sm" | "md";
  campaignTitle?: string;
}) {
  const { setApprovalStatusAction } = useServerActions();
  const router = useRouter();
  const reasonId = useId();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState(false);
  const [reason, setReason] = useState("");
  const [reasonError, setReasonError] = useState<string | null>(null);
  const closeDialog = useCallback(() => setRejecting(false), []);

  const act = (status: "approved" | "rejected", why?: string) => {
    setError(null);
    startTransition(async () => {
      try {
        const result = await setApprovalStatusAction(campaignId, status, why);
        if (!result.ok) {
          if (status === "rejected") setReasonError(result.error || APPROVAL_ERROR);
          else setError(result.error || APPROVAL_ERROR);
          return;
        }
        setRejecting(false);
        router.refresh();
      } catch {
        if (status === "rejected") setReasonError(APPROVAL_ERROR);
        else setError(APPROVAL_ERROR);
      }
    });
  };

  const submitReject = (e: React.FormEvent) => {
    e.preventDefault();
    const why = reason.trim();
    if (!why) return setReasonError(REJECT_TEXT.reasonRequired);
    if (why.length > REJECT_REASON_MAX) return setReasonError(REJECT_TEXT.reasonTooLong);
    setReasonError(null);
    act("rejected", why);
  };

  const suffix = campaignTitle ? ` ${campaignTitle}` : "";
  return (
    <div className="space-y-2">
      <div className="flex flex-wrap gap-2">
        {!isApproved({ approvalStatus }) && (
          <Button
            size={size}
            variant="success"
            disabled={pending}
            onClick={() => act("approved")}
            aria-label={
              campaignTitle
                ? `${approvalStatus === "rejected" ? "Re-approve" : "Approve"}${suffix}`
                : undefined
            }
          >
            {approvalStatus === "rejected" ? "Re-approve" : "Approve"}
          </Button>
        )}
        {approvalStatus !== "rejected" && rejectable && (
          <Button
            size={size}
            variant="danger"
            disabled={pending}
            onClick={() => {
              setReasonError(null);
              setRejecting(true);
            }}
            aria-label={campaignTitle ? `Reject${suffix}` : undefined}
          >
            Reject
          </Button>
        )}
      </div>
      {error && (
        <p role="alert" className="text-sm text-red-600">
          {error}
        </p>
      )}
      {rejecting && (
        <Modal
          title={campaignTitle ? `Reject "${campaignTitle}"?` : "Reject this event?"}
          onClose={closeDialog}
          size="sm"
          dismissible={!pending}
        >
          <form onSubmit={submitReject} noValidate>
            <p className="text-sm text-slate-700">
              The event is hidden from everyone but its organizer and admins, and the organizer is emailed
              your reason.
            </p>
            <div className="mt-4">
              <Field
                id={reasonId}
                label="Reason (sent to the organizer)"
                error={reasonError ?? undefined}
                hint={`${reason.trim().length} / ${REJECT_REASON_MAX} characters`}
              >
                <Textarea
                  id={reasonId}
                  rows={4}
                  value={reason}
                  invalid={Boolean(reasonError)}
                  onChange={(e) => setReason(e.target.value)}
                />
              </Field>
            </div>
            <div className="mt-6 flex justify-end gap-3">
              <Button type="button" variant="secondary" onClick={closeDialog} disabled={pending}>
                Cancel
              </Button>
              <Button type="submit" variant="danger" disabled={pending}>
                {pending ? "Rejecting..." : "Reject event"}
              </Button>
            </div>
          </form>
        </Modal>
      )}
    </div>
  );
}
