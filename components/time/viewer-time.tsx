"use client";

import { useSyncExternalStore } from "react";
import { formatInZone, localTimeZone } from "@/lib/campaigns/event-time";

const noSubscription = () => () => {};

/**
 * A moment of the backer's own (a refund, issue 34) in the viewer's zone with its abbreviation. The
 * server does not know that zone: it renders `zone` (the event's), and the browser, once it knows
 * its own, renders it again in that one (useSyncExternalStore: the hydration render matches the
 * server's, so it never mismatches).
 */
export function ViewerTime({ iso, zone }: { iso: string; zone: string }) {
  const viewerZone = useSyncExternalStore(noSubscription, localTimeZone, () => null);
  return <time dateTime={iso}>{formatInZone(iso, viewerZone ?? zone)}</time>;
}
