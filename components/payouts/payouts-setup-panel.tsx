import type { Viewer } from "@/lib/access/viewer";
import { needsPayoutSetup } from "@/lib/access/payable";
import { PayoutsSetupNotice } from "@/components/payouts/payouts-setup-notice";

/** The event page's payouts notice: to the organizer of a paid event waiting for their payouts (issue 34). */
export async function PayoutsSetupPanel({
  campaign,
  viewer,
}: {
  campaign: {
    approvalStatus: string;
    creatorId: string;
    ticketPriceCents: number;
    pactType: string | null;
    depositCents: number;
  };
  viewer: Viewer | null;
}) {
  if (!(await needsPayoutSetup(campaign, viewer?.id ?? null))) return null;
  return <PayoutsSetupNotice />;
}
