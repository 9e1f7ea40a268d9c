"use client";

import { useSyncExternalStore } from "react";
import { localTimeZone, yourTime } from "@/lib/campaigns/event-time";

const noSubscription = () => () => {};

/**
 * " · 4:00 PM PST your time" after an event time, added in the browser once it knows the viewer's
 * zone (issue 16). The server renders nothing here — its pages are shared across viewers — and
 * the first client render matches it, so hydration never mismatches.
 */
export function YourTime({ iso, zone }: { iso: string; zone: string }) {
  const viewerZone = useSyncExternalStore(noSubscription, localTimeZone, () => null);
  const text = viewerZone ? yourTime(iso, zone, viewerZone) : null;
  if (!text) return null;
  return <span className="text-slate-500"> · {text}</span>;
}
