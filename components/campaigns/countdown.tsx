"use client";

import { useSyncExternalStore } from "react";
import { COUNTDOWN_TICK_MS, countdownParts, formatTimeLeft } from "@/lib/campaigns/countdown";

/**
 * One clock for the whole page (issue 34: the two countdowns agree): every component below reads the
 * same `now`, set by one interval, so the stats' "time until deadline" and the countdown boxes never
 * show two values. The first render (and hydration) uses the server's clock; the browser's takes
 * over at once — a cached copy's render time may be minutes old.
 */
let current = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | undefined;

function subscribe(listener: () => void) {
  listeners.add(listener);
  if (!timer) {
    current = Date.now();
    timer = setInterval(() => {
      current = Date.now();
      for (const l of listeners) l();
    }, COUNTDOWN_TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

const usePageNow = (serverNow: number) =>
  useSyncExternalStore(
    subscribe,
    () => current,
    () => serverNow,
  );

/** The stats' "time until deadline": the same clock as the countdown below it. */
export function TimeLeft({ deadline, serverNow }: { deadline: string; serverNow: number }) {
  return <>{formatTimeLeft(deadline, usePageNow(serverNow))}</>;
}

/**
 * Days, hours and minutes until the deadline, refreshed every second (SPEC §9); "Campaign ended" after
 * it.
 */
export function Countdown({ deadline, serverNow }: { deadline: string; serverNow: number }) {
  const parts = countdownParts(deadline, usePageNow(serverNow));
  if (parts.ended) {
    return (
      <p className="rounded-lg bg-slate-100 px-4 py-3 text-center font-semibold text-slate-700" role="timer">
        Campaign ended
      </p>
    );
  }
  const boxes = [
    { label: parts.days === 1 ? "Day" : "Days", value: parts.days },
    { label: parts.hours === 1 ? "Hour" : "Hours", value: parts.hours },
    { label: parts.minutes === 1 ? "Minute" : "Minutes", value: parts.minutes },
  ];
  return (
    <div role="timer" aria-label="Time until deadline" className="grid grid-cols-3 gap-2">
      {boxes.map((b) => (
        <div key={b.label} className="rounded-lg bg-brand-50 px-2 py-3 text-center">
          <div className="text-2xl font-bold tabular-nums text-brand-700">{b.value}</div>
          <div className="text-xs font-medium uppercase tracking-wide text-slate-600">{b.label}</div>
        </div>
      ))}
    </div>
  );
}
