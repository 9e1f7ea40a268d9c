import Link from "next/link";
import type { Actor } from "@/lib/access/rules";
import { rejectionOf, RESUBMIT_TEXTS } from "@/lib/campaigns/resubmit";
import { buttonClass } from "@/components/ui/button";

/**
 * A rejected event, to its organizer (issue 34): the admin's reason and "Edit and resubmit" (the
 * edit form sends it back to review), or why it cannot be resubmitted any more.
 */
export async function RejectionNotice({
  campaign,
  actor,
}: {
  campaign: { id: string; creatorId: string; approvalStatus: string; resubmitCount: number };
  actor: Actor;
}) {
  const rejection = await rejectionOf(campaign, actor);
  if (!rejection) return null;
  return (
    <div
      role="status"
      data-testid="rejection-notice"
      className="rounded-xl border border-red-200 bg-red-50 p-4 text-red-900"
    >
      <p className="font-semibold">{RESUBMIT_TEXTS.title}</p>
      <p className="mt-1 text-sm whitespace-pre-line">
        {rejection.reason ? (
          <>
            <span className="font-semibold">{RESUBMIT_TEXTS.reason}</span> {rejection.reason}
          </>
        ) : (
          RESUBMIT_TEXTS.noReason
        )}
      </p>
      <p className="mt-1 text-sm">
        It is visible only to you and the admins.{" "}
        {rejection.resubmitsLeft > 0
          ? RESUBMIT_TEXTS.left(rejection.resubmitsLeft)
          : RESUBMIT_TEXTS.exhausted}
      </p>
      {rejection.resubmitsLeft > 0 && (
        <Link href={`/campaign/${campaign.id}/edit`} className={`mt-3 ${buttonClass("primary", "sm")}`}>
          {RESUBMIT_TEXTS.button}
        </Link>
      )}
    </div>
  );
}
