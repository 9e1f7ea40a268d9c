/** What a refusal says (SPEC §6 where it gives the text). Shared by services, pages and tests. */
export const ACCESS_TEXTS = {
  signIn: "Please sign in first.",
  adminOnly: "Access denied. Admin privileges required.",
  /** SPEC §3: the event page's text for a missing (or hidden) event */
  campaignNotFound: "Campaign not found",
  /** SPEC §6: the manage page's text; an unknown event and someone else's get the same answer */
  manageDenied: "Campaign not found or you don't have permission to manage it",
  updateDenied: "Only the organizer can post updates.",
  cancelDenied: "Only the organizer can cancel this event.",
  deleteCommentDenied: "Only the organizer or an admin can delete comments.",
  pledgeNotFound: "Commitment not found.",
} as const;

/** The `?notice=` code the manage page redirects home with; the home page maps it to manageDenied. */
export const MANAGE_DENIED_NOTICE = "manage-denied";

/** Issue 18: a visitor sent home from Create, and anyone sent home from a missing event, is told why. */
export const SIGN_IN_TO_CREATE_NOTICE = "sign-in-to-create";
export const EVENT_NOT_FOUND_NOTICE = "event-not-found";
export const NOTICE_TEXTS = {
  signInToCreate: "Sign in to create an event.",
  eventNotFound: "That event was not found.",
} as const;

/**
 * Issue 34: a paid event is approved only once its organizer can be paid (lib/access/payable.ts):
 * the organizer is told so at creation and on the event and manage pages, with a link to /payouts.
 */
export const PAYOUTS_SETUP_TEXTS = {
  title: "Set up payouts to go live",
  text: "A paid event goes live once your payouts are set up: an admin approves it only when you can be paid.",
  link: "Set up payouts",
} as const;
