"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useCallback, useState, useTransition } from "react";
import dynamic from "next/dynamic";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { APPROVAL_ERROR } from "@/lib/campaigns/texts";
import { isApproved } from "@/lib/access/rules";

// The confirmation is fetched when an admin presses Reject: every visitor's page carries this component.
const RejectDialog = dynamic(() => import("@/components/campaigns/reject-dialog"));

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
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);
  const [rejecting, setRejecting] = useState(false);
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
        <RejectDialog
          campaignTitle={campaignTitle}
          pending={pending}
          error={reasonError}
          onReject={(why) => {
            setReasonError(null);
            act("rejected", why);
          }}
          onClose={closeDialog}
        />
      )}
    </div>
  );
}
