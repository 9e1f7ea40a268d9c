/**
 * Issue 34: an optional reason for cancelling, shown to backers (as long as an admin's reject
 * reason). Plain constants, no zod: the cancel dialog (a client component) reads them without
 * bringing the validation library into the event page's bundle.
 */
export const CANCEL_REASON_MAX = 500;

export const CANCEL_TEXTS = {
  reasonTooLong: `The reason can be at most ${CANCEL_REASON_MAX} characters.`,
  reasonLabel: "Reason (optional, shown to backers)",
} as const;
