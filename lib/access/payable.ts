import "server-only";
import { db, type Prisma } from "@/lib/db";
import { getGateway } from "@/lib/payments/gateway";
import { isPaidEvent } from "@/lib/events/lifecycle";

/**
 * May this organizer be paid now: the approval gate of a paid event (lib/campaigns/service, edit).
 * A rule about a person, so it sits with the other rules, below the event and payout domains;
 * lib/payouts/accounts keeps the account itself and its onboarding.
 */
export const PAYABLE_TEXTS = {
  notReady:
    "The organizer has not set up payouts yet. A paid event is approved once its organizer can be paid (Payouts, on their profile).",
} as const;

/** Whether `userId` can be paid now (the approval gate of a paid event). */
export async function canBePaid(tx: Prisma.TransactionClient, userId: string): Promise<boolean> {
  const row = await tx.payoutAccount.findUnique({
    where: { userId },
    select: { status: true, provider: true },
  });
  // an account of the other provider (a demo account once real keys are set) cannot be paid
  return row?.status === "ready" && row.provider === getGateway().mode;
}

/**
 * Issue 34: the organizer must still set up payouts before their paid event can be approved — the
 * event waits for approval and its organizer cannot be paid yet. False for everyone else's view.
 */
export async function needsPayoutSetup(
  event: {
    approvalStatus: string;
    creatorId: string;
    ticketPriceCents: number;
    pactType?: string | null;
    /** issue 36: a free event with a show-up deposit takes money too */
    depositCents: number;
  },
  viewerId: string | null,
  tx: Prisma.TransactionClient = db,
): Promise<boolean> {
  if (viewerId !== event.creatorId || event.approvalStatus === "approved") return false;
  if (!isPaidEvent(event)) return false;
  return !(await canBePaid(tx, event.creatorId));
}
