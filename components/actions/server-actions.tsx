"use client";
import { createContext, useContext, type ReactNode } from "react";
import type { ActionResult } from "@/lib/actions";
import type { CommitResult } from "@/lib/pledges/decide";
import type { PublicCommitment } from "@/lib/pledges/queries";
import type { PresentedComment } from "@/lib/comments/queries";
import type { MyCommitment } from "@/lib/pledges/mine";
import type { WithdrawResult } from "@/lib/pledges/withdraw";
import type { PayPledgeResult } from "@/lib/charging/recovery";
import type { SavedCardView } from "@/lib/pledges/saved-cards";
import type { MyInvites } from "@/lib/pledges/friends";

/**
 * The server actions client components call. A "use server" export is a public endpoint, so the
 * actions stay in app/ where the security registry lists them; the root layout (a server
 * component) hands them to this provider as props, and client components take them from here —
 * components never import from app/ (issue 15 item 6).
 */
export type ServerActions = {
  commitToCampaignAction: (input: unknown) => Promise<ActionResult<CommitResult>>;
  myCommitmentAction: (input: unknown) => Promise<ActionResult<MyCommitment | null>>;
  withdrawCommitmentAction: (input: unknown) => Promise<ActionResult<WithdrawResult>>;
  changeCardAction: (input: unknown) => Promise<ActionResult<{ brand: string; last4: string }>>;
  myDefaultCardAction: () => Promise<ActionResult<SavedCardView | null>>;
  giveUpPlaceAction: (input: unknown) => Promise<ActionResult<{ refundPending: boolean }>>;
  goAheadAction: (input: unknown) => Promise<ActionResult<{ members: number }>>;
  confirmPledgePaymentAction: (input: unknown) => Promise<ActionResult<PayPledgeResult>>;
  setPayoutHoldAction: (input: {
    campaignId: string;
    reason: string | null;
  }) => Promise<ActionResult<{ held: boolean }>>;
  loadMoreCommitmentsAction: (
    input: unknown,
  ) => Promise<ActionResult<{ items: PublicCommitment[]; total: number }>>;
  loadMoreCommentsAction: (
    input: unknown,
  ) => Promise<ActionResult<{ comments: PresentedComment[]; total: number; canDelete: boolean }>>;
  postCommentAction: (input: { campaignId: string; text: string }) => Promise<ActionResult<{ id: string }>>;
  deleteCommentAction: (input: { commentId: string }) => Promise<ActionResult>;
  postUpdateAction: (input: {
    campaignId: string;
    text: string;
  }) => Promise<ActionResult<{ emailed: number }>>;
  cancelCampaignAction: (input: {
    campaignId: string;
    reason?: string;
  }) => Promise<ActionResult<{ refunded: number; emailed: number }>>;
  setApprovalStatusAction: (
    campaignId: string,
    approvalStatus: "approved" | "rejected",
    reason?: string,
  ) => Promise<ActionResult<{ approvalStatus: string }>>;
  deleteTestEventsAction: () => Promise<ActionResult<{ deleted: number; kept: string[]; keptCount: number }>>;
  createCampaignAction: (input: unknown, draftId?: string | null) => Promise<ActionResult<{ id: string }>>;
  saveDraftAction: (input: unknown) => Promise<ActionResult<{ id: string }>>;
  deleteDraftAction: (draftId: unknown) => Promise<ActionResult<null>>;
  updateCampaignAction: (
    campaignId: unknown,
    input: unknown,
    opts?: { resubmit?: boolean },
  ) => Promise<ActionResult<{ id: string; emailed: number }>>;
  /** issue 37: named friends */
  inviteFriendAction: (input: unknown) => Promise<ActionResult<{ message: string }>>;
  myInvitesAction: (input: unknown) => Promise<ActionResult<MyInvites>>;
  claimSeatAction: (input: unknown) => Promise<ActionResult<{ campaignId: string }>>;
};

const ServerActionsContext = createContext<ServerActions | null>(null);

export function ServerActionsProvider({
  actions,
  children,
}: {
  actions: ServerActions;
  children: ReactNode;
}) {
  return <ServerActionsContext.Provider value={actions}>{children}</ServerActionsContext.Provider>;
}

export function useServerActions(): ServerActions {
  const actions = useContext(ServerActionsContext);
  if (!actions) throw new Error("useServerActions() needs <ServerActionsProvider> (app/layout.tsx).");
  return actions;
}
