"use server";

import { runAction, type ActionResult } from "@/lib/actions";
import { getViewer } from "@/lib/access/viewer";
import { checkIn, searchAtDoor, type CheckInAnswer, type DoorSearchRow } from "@/lib/tickets/check-in";

/** The door (issue 36 item 2): a scanned token, a typed code or an attendee number, checked in once. */
export async function checkInAction(
  campaignId: string,
  input: unknown,
): Promise<ActionResult<CheckInAnswer>> {
  return runAction("Could not check in. Please try again.", async () =>
    checkIn(await getViewer(), typeof campaignId === "string" ? campaignId : "", input),
  );
}

/** The door's search: the organizer by name or number, a door helper by number or code only. */
export async function searchAtDoorAction(
  campaignId: string,
  query: string,
): Promise<ActionResult<{ rows: DoorSearchRow[]; counts: { checkedIn: number; expected: number } }>> {
  return runAction("Could not search. Please try again.", async () =>
    searchAtDoor(
      await getViewer(),
      typeof campaignId === "string" ? campaignId : "",
      typeof query === "string" ? query : "",
    ),
  );
}
