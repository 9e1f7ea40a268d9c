/**
 * Limits and messages of organizer updates. Kept apart from the zod schema so the update form can
 * show its counter without loading zod with the event page.
 */
export const UPDATE_MAX = 2000;
/** Organizers may post at most this many updates per event in any 24 hours (each one emails every committer). */
export const UPDATES_PER_DAY = 3;

export const UPDATE_REQUIRED = "Please write your update first.";
export const UPDATE_TOO_LONG = `Updates can be at most ${UPDATE_MAX} characters.`;
export const UPDATE_LIMIT_REACHED = `You can post at most ${UPDATES_PER_DAY} updates a day. Please try again later.`;
