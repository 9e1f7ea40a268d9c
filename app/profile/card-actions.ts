"use server";

import { getViewer } from "@/lib/access/viewer";
import { runAction, type ActionResult } from "@/lib/actions";
import {
  defaultSavedCard,
  makeDefaultCard,
  removeSavedCard,
  type RemoveCardResult,
  type SavedCardView,
} from "@/lib/pledges/saved-cards";

const CARD_FAILED = "Could not update your saved cards. Please try again.";

/** The card the commit dialog offers in one tap ("Pay with Visa ·4242"): the viewer's own, or null. */
export async function myDefaultCardAction(): Promise<ActionResult<SavedCardView | null>> {
  return runAction(CARD_FAILED, async () => defaultSavedCard(await getViewer()));
}

/** "Make default" on the profile: one of the viewer's own saved cards. */
export async function makeDefaultCardAction(input: unknown): Promise<ActionResult<{ isDefault: true }>> {
  return runAction(CARD_FAILED, async () => makeDefaultCard(await getViewer(), input));
}

/** "Remove" on the profile: the commitments a card backs move to a replacement first. */
export async function removeSavedCardAction(input: unknown): Promise<ActionResult<RemoveCardResult>> {
  return runAction(CARD_FAILED, async () => removeSavedCard(await getViewer(), input));
}
