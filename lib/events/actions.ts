/**
 * Which of the event page's own actions each state offers (issue 34 item 4: "the page follows the
 * state"), as one table. The page, the share panel, the organizer box and the updates section read
 * it; the mutations behind Edit and Post update refuse what it refuses. Pure and dependency-free
 * beside lib/events/lifecycle.ts, whose phase it extends with the approval states.
 */
import { phaseOf, type Phase } from "@/lib/events/lifecycle";

export type EventAction = "share" | "calendar" | "flyer" | "edit" | "postUpdate";

/** The phase once approved; before that the approval decides (a pending or rejected event is nobody's to share). */
export type ActionState = Phase | "unapproved" | "rejected";

const ALL: Record<EventAction, boolean> = {
  share: true,
  calendar: true,
  flyer: true,
  edit: true,
  postUpdate: true,
};
const NONE: Record<EventAction, boolean> = {
  share: false,
  calendar: false,
  flyer: false,
  edit: false,
  postUpdate: false,
};

/**
 * - collecting, confirmed, charged: everything (the event is on; sharing still helps it fill).
 * - ended (deadline passed, result being recorded): no one can join, so no Share or Flyer; it may
 *   still happen, so the calendar, Edit (its details) and updates stay.
 * - expired, cancelled: it will not happen: nothing to share, put in a calendar, edit or announce
 *   (a cancellation's reason goes with the cancellation itself).
 * - unapproved: only its organizer and admins see it: a link or flyer would lead others nowhere.
 * - rejected: only "Edit and resubmit" makes sense.
 */
export const EVENT_ACTIONS: Record<ActionState, Record<EventAction, boolean>> = {
  collecting: ALL,
  ended: { ...ALL, share: false, flyer: false },
  confirmed: ALL,
  charged: ALL,
  expired: NONE,
  cancelled: NONE,
  unapproved: { ...NONE, calendar: true, edit: true, postUpdate: true },
  rejected: { ...NONE, edit: true },
};

export type ActionFacts = { status: string; deadline: Date; approvalStatus: string };

export function actionState(c: ActionFacts, now: Date): ActionState {
  if (c.approvalStatus === "rejected") return "rejected";
  if (c.approvalStatus !== "approved") return "unapproved";
  return phaseOf(c, now);
}

/** Whether the event in its current state offers `action` (who may take it is lib/access's question). */
export const offers = (c: ActionFacts, action: EventAction, now: Date): boolean =>
  EVENT_ACTIONS[actionState(c, now)][action];

/** Said when a mutation is asked for an action the state does not offer. */
export const ACTION_REFUSED: Record<"edit" | "postUpdate", string> = {
  edit: "This event can no longer be edited.",
  postUpdate: "Updates can no longer be posted on this event.",
};
