/** The limits of an event's fields and of the home list, as named constants (forms, schemas, queries). */
export const TITLE_MIN = 5;
export const TITLE_MAX = 100;
export const DESCRIPTION_MIN = 20;
export const DESCRIPTION_MAX = 1000;
export const LOGISTICS_MAX = 2000;
export const GOAL_MAX = 10_000;
export const TICKET_PRICE_MAX_DOLLARS = 10_000;
export const DEADLINE_MIN_MS = 24 * 60 * 60 * 1000;
export const DEADLINE_MAX_MS = 365 * 24 * 60 * 60 * 1000;
/** Issue 31: every extension together moves the deadline at most this far past the one it was created with. */
export const DEADLINE_EXTENSION_MAX_DAYS = 90;
export const DEADLINE_EXTENSION_MAX_MS = DEADLINE_EXTENSION_MAX_DAYS * 24 * 60 * 60 * 1000;
export const PAYMENT_HANDLE_MAX = 100;
/** Issue 31: the refund bonus is the organizer's own promise, on paid events only; the database CHECK repeats it. */
export const REFUND_BONUS_DEFAULT = 10;
export const REFUND_BONUS_MIN = 1;
export const REFUND_BONUS_MAX = 20;
export const DRAFT_SNIPPET_LENGTH = 80;
export const HOME_PAGE_SIZE = 24;
export const ENDING_SOON_MS = 7 * 24 * 60 * 60 * 1000;
/** Event time and place (issue 16); the database CHECK constraints repeat them. */
export const VENUE_MAX = 120;
export const ADDRESS_MAX = 300;
export const AREA_MAX = 80;
export const ONLINE_URL_MAX = 500;
export const START_MAX_MS = 2 * 365 * 24 * 60 * 60 * 1000;
/** An admin's reason for rejecting an event (emailed to the organizer). */
export const REJECT_REASON_MAX = 500;

/**
 * Issue 31: how far the deadline may move. Backers agreed to "charged only if N commit by <date>":
 * once someone has committed (`agreed`), every extension together stops `DEADLINE_EXTENSION_MAX_DAYS`
 * after the deadline the event had then (`original`, `cap`). Before anyone committed nobody agreed
 * to a date: the organizer may move it freely, and the deadline saved becomes the original
 * (updateCampaign). `latest` also keeps it within a year from now and not past the start.
 */
export function deadlineLimits(
  c: { deadline: Date; originalDeadline: Date | null; startsAt: Date | null },
  now: Date,
  agreed: boolean,
) {
  const original = c.originalDeadline ?? c.deadline; // the column is filled on insert; never null in practice
  const cap = agreed ? new Date(original.getTime() + DEADLINE_EXTENSION_MAX_MS) : null;
  const bounds = [now.getTime() + DEADLINE_MAX_MS];
  if (cap) bounds.push(cap.getTime());
  if (c.startsAt) bounds.push(c.startsAt.getTime());
  return { original, cap, latest: new Date(Math.min(...bounds)) };
}
