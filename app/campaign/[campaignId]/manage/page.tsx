import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { getViewer } from "@/lib/access/viewer";
import { getManageView } from "@/lib/pledges/manage-queries";
import { MANAGE_DENIED_NOTICE } from "@/lib/access/texts";
import { ManageView } from "@/components/manage/manage-view";
import { doorCountsFor } from "@/lib/tickets/check-in";
import { doorHelpersOf } from "@/lib/tickets/door-helpers";
import { DoorSection } from "@/components/check-in/door-section";
import { inviteDoorHelperAction, removeDoorHelperAction } from "../door-actions";
import { depositRosterOf } from "@/lib/pledges/deposits";
import { DepositSection } from "@/components/manage/deposit-section";
import { excuseDepositAction } from "../deposit-actions";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Manage Campaign", robots: { index: false } };

/** The organizer's view of their campaign (creator only; everyone else goes home with a notice). */
export default async function ManageCampaignPage({ params }: { params: Promise<{ campaignId: string }> }) {
  const { campaignId } = await params;
  const viewer = await getViewer();
  const view = await getManageView(campaignId, viewer);
  if (!view) redirect(`/?notice=${MANAGE_DENIED_NOTICE}`);
  const [counts, helpers, deposits] = await Promise.all([
    doorCountsFor(viewer, campaignId),
    doorHelpersOf(viewer, campaignId),
    // issue 36: the show-up deposits (null for an event without one)
    depositRosterOf(viewer, campaignId),
  ]);
  return (
    <div className="mx-auto max-w-5xl px-4 py-6 sm:py-10">
      <ManageView view={view} now={new Date().toISOString()} />
      {helpers && (
        <div className="mt-6">
          <DoorSection
            actions={{ inviteDoorHelperAction, removeDoorHelperAction }}
            campaignId={campaignId}
            counts={counts}
            helpers={helpers}
          />
        </div>
      )}
      {deposits && (
        <div className="mt-6">
          <DepositSection roster={deposits} money={view.money} excuseDepositAction={excuseDepositAction} />
        </div>
      )}
    </div>
  );
}
