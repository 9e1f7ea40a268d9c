import { useSyncExternalStore } from "react";
import type { CommitResult } from "@/lib/pledges/decide";

/**
 * The commit result on show (SPEC §8's "Event Confirmed!" and its siblings). It lives outside the
 * event page, in the root layout's CommitResultHost, because the page behind it refreshes the moment
 * the result comes (issue 34: the dialog and the page show the same count) and a refreshed page is a
 * new copy keyed by data version, which remounts everything inside it.
 */
export type ShownResult = {
  campaignId: string;
  result: CommitResult;
  priceText: string;
  whenCharged: string;
};

let shown: ShownResult | null = null;
const listeners = new Set<() => void>();

export function showCommitResult(next: ShownResult | null) {
  shown = next;
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

const current = () => shown;
const none = () => null;

/** The result on show, or null; the server never renders one. */
export function useShownResult(): ShownResult | null {
  return useSyncExternalStore(subscribe, current, none);
}
