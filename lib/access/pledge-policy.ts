import {
  CLOSED_STATUSES,
  COLLECTING_STATUSES,
  inStatuses,
  isConfirmed,
  keepsAccepting,
} from "@/lib/events/lifecycle";
import { canModerate, isApproved, type Actor } from "@/lib/access/rules";
import { ACCESS_TEXTS } from "@/lib/access/texts";
import { formatCents } from "@/lib/format";
import { CHANGE_WITHDRAW_DAYS } from "@/lib/events/money-sentences";

/**
 * Who may commit and who may manage (SPEC §4, §6; DESIGN §1). Pure functions: the commit
 * transaction and the manage queries call them with fresh rows, and the UI uses the same answers to
 * disable the Commit button (hiding a button is never the check itself).
 */

type CommitPolicyCampaign = {
  creatorId: string;
  status: string; // CampaignStatus
  approvalStatus: string; // ApprovalStatus
  deadline: Date;
  /** issue 7: "Keep accepting commitments after the threshold" (default off, as SPEC) */
  acceptAfterThreshold?: boolean;
  /** issue 20: an event with a capacity keeps accepting up to it, then onto the waitlist */
  capacity?: number | null;
};

/** Whether a commit now would arrive after the threshold (and so be charged at once). */
export const isLateCommit = (c: Pick<CommitPolicyCampaign, "status" | "acceptAfterThreshold" | "capacity">) =>
  keepsAccepting(c) && isConfirmed(c.status);

export const COMMIT_MESSAGES = {
  signedOut: "Please sign in to commit to this event",
  alreadyCommitted: "You have already committed to this event",
  saveFailed: "Error recording your pledge. Please try again.",
  notApproved: "This event is not open for commitments until it is approved.",
  closed: "This event is no longer accepting commitments.",
  ended: "This event has ended and is no longer accepting commitments.",
  paymentRequired: "Please save a payment method to commit to this paid event.",
  notFound: ACCESS_TEXTS.campaignNotFound,
} as const;

export type CommitBlock = keyof Pick<
  typeof COMMIT_MESSAGES,
  "signedOut" | "alreadyCommitted" | "notApproved" | "closed" | "ended"
>;

/**
 * Why `viewer` may not commit now, or null when they may. Order matters for the message shown:
 * sign-in first, then the viewer's own pledge, then the event's state.
 */
export function commitBlock(
  viewer: Actor,
  c: CommitPolicyCampaign,
  alreadyCommitted: boolean,
  now: Date,
): CommitBlock | null {
  if (!viewer) return "signedOut";
  if (alreadyCommitted) return "alreadyCommitted";
  if (!isApproved(c) && !canModerate(viewer)) return "notApproved";
  if (inStatuses(CLOSED_STATUSES, c.status) && !isLateCommit(c)) return "closed";
  if (c.deadline.getTime() <= now.getTime()) return "ended";
  return null;
}

// ---- withdrawing (DESIGN §1 "withdrawing"; issue 17: after a date or place change) ----------------

/** After a date or place change on a confirmed event, backers may withdraw with a refund this long (the refund rules say it). */
export { CHANGE_WITHDRAW_DAYS };

/** When the window a change after the tip opens closes: 7 days, or the (new) start if sooner. */
export function changeWithdrawUntil(now: Date, startsAt: Date | null): Date {
  const week = new Date(now.getTime() + CHANGE_WITHDRAW_DAYS * 86_400_000);
  return startsAt && startsAt > now && startsAt < week ? startsAt : week;
}

type WithdrawCampaign = {
  status: string;
  deadline: Date;
  changedAfterTipAt: Date | null;
  changeWithdrawUntil: Date | null;
};

/**
 * Whether the backer of `pledge` may withdraw now: `open` until the event tips (no money has moved);
 * `afterChange` on a confirmed event whose date or place changed after the backer committed, inside
 * the change window (a charge already made is refunded); otherwise `binding` (tipped) or `over`.
 */
export type WithdrawRule =
  { kind: "open" } | { kind: "afterChange"; until: Date } | { kind: "binding" } | { kind: "over" };

export function withdrawRule(c: WithdrawCampaign, pledge: { createdAt: Date }, now: Date): WithdrawRule {
  if (inStatuses(COLLECTING_STATUSES, c.status))
    return c.deadline.getTime() > now.getTime() ? { kind: "open" } : { kind: "over" };
  if (!isConfirmed(c.status)) return { kind: "over" };
  if (
    c.changedAfterTipAt &&
    c.changeWithdrawUntil &&
    c.changeWithdrawUntil.getTime() > now.getTime() &&
    pledge.createdAt.getTime() < c.changedAfterTipAt.getTime()
  )
    return { kind: "afterChange", until: c.changeWithdrawUntil };
  return { kind: "binding" };
}

export const WITHDRAW_TEXTS = {
  binding: "This event reached its goal, so your commitment is binding and can no longer be withdrawn.",
  over: "This event is over: there is nothing to withdraw.",
  notCommitted: "You have no commitment to this event.",
  processing: "Your payment is being processed. Please try again in a minute.",
  done: "You withdrew your commitment.",
} as const;

// ---- the waitlist (issue 20, DESIGN §1 "capacity and waitlist") -------------------------------------

/** What a waiting backer consents to: in the commit dialog, the join email and the README. */
export function waitlistConsent(
  c: { ticketPriceCents: number; depositCents: number },
  cardText?: string,
  /** issue 37: a group waits as one entry; its payment is for the places it gets */
  seats = 1,
): string {
  // issue 36: the show-up deposit is charged with the ticket (a free event with one takes a card too)
  const cents = c.ticketPriceCents + c.depositCents;
  const card = cardText ?? "your saved card";
  if (cents > 0 && seats > 1)
    return `If places open before the event starts, ${card} is charged ${formatCents(cents)} for each person of your group who gets one (${formatCents(cents * seats)} for all ${seats}), automatically, and we email you. If none opens, nothing is charged. You can leave the waitlist at any time.`;
  return cents > 0
    ? `If a place opens before the event starts, ${card} is charged ${formatCents(cents)} automatically and we email you. If none opens, nothing is charged. You can leave the waitlist at any time.`
    : "If a place opens before the event starts, you're in automatically and we email you. You can leave the waitlist at any time.";
}

export const WAITLIST_TEXTS = {
  full: (capacity: number) => `This event is full: all ${capacity.toLocaleString("en-US")} places are taken.`,
  joinAt: (position: number) => `Join the waitlist and you're #${position} in line.`,
  left: "You left the waitlist. Nothing was charged.",
} as const;

export const GIVE_UP_TEXTS = {
  /** beside the button, before the backer confirms */
  explain:
    "Can't make it? Give your place to the first person on the waitlist. If you were charged, you're refunded in full as soon as they have paid.",
  notIn: "You don't hold a place at this event.",
  notTipped: "This event hasn't reached its goal yet: you can simply withdraw.",
  started: "The event has started, so places can no longer change hands.",
  nobodyWaiting: "Nobody is waiting for a place right now, so there is nobody to give yours to.",
  done: "You gave up your place. It went to the first person on the waitlist.",
} as const;
