"use client";
import { useServerActions } from "@/components/actions/server-actions";

import { useState, useTransition } from "react";
import { useRouter } from "next/navigation";
import { Button } from "@/components/ui/button";
import { APPROVAL_ERROR } from "@/lib/campaigns/texts";
import { isApproved } from "@/lib/access/rules";

/**
 * Approve / Reject (or Re-approve) buttons for admins. The server action checks the role again;
 * hiding these buttons from others is only a convenience.
 */
export function ApprovalButtons({
  campaignId,
  approvalStatus,
  size = "sm",
  campaignTitle,
}: {
  campaignId: string;
  approvalStatus: "pending" | "approved" | "rejected";
  size?: "sm" | "md";
  campaignTitle?: string;
}) {
  const { setApprovalStatusAction } = useServerActions();
  const router = useRouter();
  const [pending, startTransition] = useTransition();
  const [error, setError] = useState<string | null>(null);

  const act = (status: "approved" | "rejected") => () => {
    setError(null);
    startTransition(async () => {
      try {
        const result = await setApprovalStatusAction(campaignId, status);
        if (!result.ok) setError(result.error || APPROVAL_ERROR);
        else router.refresh();
      } catch {
        setError(APPROVAL_ERROR);
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
            onClick={act("approved")}
            aria-label={
              campaignTitle
                ? `${approvalStatus === "rejected" ? "Re-approve" : "Approve"}${suffix}`
                : undefined
            }
          >
            {approvalStatus === "rejected" ? "Re-approve" : "Approve"}
          </Button>
        )}
        {approvalStatus !== "rejected" && (
          <Button
            size={size}
            variant="danger"
            disabled={pending}
            onClick={act("rejected")}
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
    </div>
  );
}
