"use client";

import { useEffect, useState } from "react";
import { COUNTDOWN_TICK_MS, countdownParts } from "@/lib/campaigns/countdown";

/**
 * Days, hours and minutes until the deadline, refreshed every second (SPEC §9); "Campaign ended" after
 * it. The first render uses the server's clock so hydration matches; the interval takes over after.
 */
export function Countdown({ deadline, serverNow }: { deadline: string; serverNow: number }) {
  const [now, setNow] = useState(serverNow);
  useEffect(() => {
    const tick = () => setNow(Date.now());
    const first = setTimeout(tick, 0);
    const timer = setInterval(tick, COUNTDOWN_TICK_MS);
    return () => {
      clearTimeout(first);
      clearInterval(timer);
    };
  }, []);
  const parts = countdownParts(deadline, now);
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
