import type { Metadata, Viewport } from "next";
import { SiteHeader } from "@/components/layout/site-header";
import { CommitResultHost } from "@/components/commit/commit-result-host";
import { ServerActionsProvider, type ServerActions } from "@/components/actions/server-actions";
import { deleteTestEventsAction, setApprovalStatusAction } from "@/app/admin/actions";
import { cancelCampaignAction } from "@/app/campaign/[campaignId]/cancel-actions";
import { deleteCommentAction, postCommentAction } from "@/app/campaign/[campaignId]/comment-actions";
import { commitToCampaignAction } from "@/app/campaign/[campaignId]/commit-action";
import { confirmPledgePaymentAction } from "@/app/pledges/[pledgeId]/pay/actions";
import { setPayoutHoldAction } from "@/app/payouts/actions";
import { myDefaultCardAction } from "@/app/profile/card-actions";
import {
  changeCardAction,
  giveUpPlaceAction,
  myCommitmentAction,
  withdrawCommitmentAction,
} from "@/app/campaign/[campaignId]/backer-actions";
import { goAheadAction } from "@/app/campaign/[campaignId]/go-ahead-actions";
import { claimSeatAction } from "@/app/claim/[token]/actions";
import { inviteFriendAction, myInvitesAction } from "@/app/campaign/[campaignId]/friend-actions";
import { loadMoreCommentsAction, loadMoreCommitmentsAction } from "@/app/campaign/[campaignId]/list-actions";
import { postUpdateAction } from "@/app/campaign/[campaignId]/update-actions";
import { updateCampaignAction } from "@/app/campaign/[campaignId]/edit-actions";
import { createCampaignAction, deleteDraftAction, saveDraftAction } from "@/app/create-campaign/actions";
import "./globals.css";

// Absolute URLs in metadata (Open Graph images) use the public address, never the one Next listens on
// behind the front server. (Read directly: lib/env also requires DATABASE_URL, which a bare build lacks.)
const publicUrl = (
  process.env.APP_URL ||
  process.env.NEXTAUTH_URL ||
  `http://localhost:${process.env.PORT || 3000}`
).replace(/\/$/, "");

export const metadata: Metadata = {
  metadataBase: new URL(publicUrl),
  title: { default: "PactNexus — a nexus for pacts", template: "%s · PactNexus" },
  description:
    "Commit to events that only happen when enough people commit. Nobody pays unless the threshold is met.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1, themeColor: "#4f46e5" };

/** Every server action a client component calls, handed down as props (components never import app/). */
const actions: ServerActions = {
  commitToCampaignAction,
  myCommitmentAction,
  withdrawCommitmentAction,
  changeCardAction,
  myDefaultCardAction,
  giveUpPlaceAction,
  goAheadAction,
  confirmPledgePaymentAction,
  setPayoutHoldAction,
  loadMoreCommitmentsAction,
  loadMoreCommentsAction,
  postCommentAction,
  deleteCommentAction,
  postUpdateAction,
  cancelCampaignAction,
  setApprovalStatusAction,
  deleteTestEventsAction,
  createCampaignAction,
  saveDraftAction,
  deleteDraftAction,
  updateCampaignAction,
  inviteFriendAction,
  myInvitesAction,
  claimSeatAction,
};

export default function RootLayout({ children }: { children: React.ReactNode }) {
  return (
    <html lang="en">
      <body className="min-h-screen flex flex-col">
        <ServerActionsProvider actions={actions}>
          <SiteHeader />
          <main className="flex-1">{children}</main>
          <CommitResultHost />
        </ServerActionsProvider>
        <footer className="border-t border-slate-200 bg-white py-6 text-center text-sm text-slate-600">
          PactNexus — a nexus for pacts. Solving coordination problems through assurance contracts.
        </footer>
      </body>
    </html>
  );
}
