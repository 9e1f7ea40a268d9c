import { REFUND_BONUS_MAX, REFUND_BONUS_MIN, REJECT_REASON_MAX } from "@/lib/campaigns/limits";

/** User-facing texts of SPEC §5/§8 for events, shared by the forms, the actions and the tests. */
export const APPROVAL_ERROR = "Error updating approval status. Please try again.";
export const CREATE_ERROR = "Error creating campaign. Please try again.";
export const DRAFT_EMPTY = "Please fill in some content before saving as draft.";
export const DRAFT_SAVED = "Draft saved successfully!";
export const DRAFT_SAVE_ERROR = "Error saving draft. Please try again.";
export const DRAFT_DELETE_ERROR = "Error deleting draft. Please try again.";
export const DRAFT_DELETE_CONFIRM = "Are you sure you want to delete this draft?";
export const NO_TEST_EVENTS = "No test events found to delete.";
export const DELETE_TEST_ERROR = "Error deleting test events. Please try again.";
export const deletedTestEvents = (n: number) => `Successfully deleted ${n} test event(s).`;
export const REJECT_TEXT = {
  reasonRequired: "Please give a reason for rejecting this event.",
  reasonTooLong: `Please keep the reason under ${REJECT_REASON_MAX} characters.`,
  tipped:
    "This event has reached its goal, so it cannot be rejected. Cancel it from its manage page instead: every attendee is refunded.",
} as const;

/**
 * The refund bonus (issue 31, DESIGN §1 "refund bonus"): no money moves for it, so every place that
 * shows it says whose promise it is.
 */
export const REFUND_BONUS_TEXTS = {
  page: (percent: number) =>
    `The organizer promises backers ${percent}% back if the goal is not met. This is the organizer's own promise: PactNexus neither holds nor pays it.`,
  formLabel: "Refund bonus (your own promise)",
  formDescription:
    "You promise backers a bonus back, paid by you, if the goal is not met. PactNexus neither holds nor pays it.",
  formHint: `${REFUND_BONUS_MIN} to ${REFUND_BONUS_MAX}%, paid events only. The event page says it is your promise, not PactNexus's.`,
  range: `Refund bonus must be a whole number from ${REFUND_BONUS_MIN} to ${REFUND_BONUS_MAX}`,
  paidOnly: "A refund bonus is for paid events only: backers of a free event pay nothing to get back.",
  freeHint: "For paid events only: backers of a free event pay nothing to get back.",
} as const;

/**
 * What the admin's "Delete test events" says about the events it keeps (issue 31): an event with money
 * on it (a charge, a refund, a saved card or a payout) is never deleted, it can be cancelled instead.
 * KEPT_TITLES_NAMED: the titles named in a message (the rest are counted).
 */
export const KEPT_TITLES_NAMED = 10;

export const KEPT_REASON = "Money is on them: a charge, a refund, a saved card or a payout.";
export const KEPT_REMEDY =
  "An event with money on it stays as the record of that money. One still open can be cancelled from its event page instead: every charged backer is refunded and saved cards are released.";

/** `"A", "B" and 3 more` */
export function namedTitles(titles: string[], total = titles.length): string {
  const named = titles.slice(0, KEPT_TITLES_NAMED).map((t) => `"${t}"`);
  const more = total - named.length;
  if (more > 0) return `${named.join(", ")} and ${more} more`;
  return named.length > 1
    ? `${named.slice(0, -1).join(", ")} and ${named[named.length - 1]}`
    : named.join("");
}

/** The answer about the kept events (empty when none was kept). */
export function keptTestEvents(titles: string[], total = titles.length): string {
  if (total === 0) return "";
  const what = total === 1 ? "1 test event was not deleted" : `${total} test events were not deleted`;
  return `${what} because money is on ${total === 1 ? "it" : "them"} (a charge, a refund, a saved card or a payout): ${namedTitles(titles, total)}. ${KEPT_REMEDY}`;
}

/** Issue 34: a rejected event may be edited and resubmitted this many times (lib/campaigns/resubmit.ts). */
export const RESUBMIT_MAX = 3;

export const RESUBMIT_TEXTS = {
  title: "Event rejected",
  reason: "The reason given:",
  noReason: "No reason was recorded.",
  button: "Edit and resubmit",
  save: "Save and resubmit",
  left: (n: number) =>
    n === 1 ? "You can resubmit it 1 more time." : `You can resubmit it ${n} more times.`,
  exhausted: `This event was already resubmitted ${RESUBMIT_MAX} times, so it cannot be resubmitted again. Please contact an admin.`,
  notRejected: "Only a rejected event can be resubmitted.",
  done: "Your changes are saved and the event is waiting for an admin's review again.",
} as const;
