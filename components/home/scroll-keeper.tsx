"use client";

import { useEffect } from "react";

/**
 * Keeps the reader where they were when a filter chip or page link loads another grid (issue 17):
 * the cached copies are separate routes, so Next remounts the page and the browser would land at
 * the top. The link remembers the position; the next grid puts it back once it has rendered — and
 * keeps putting it back for a few frames while late layout (covers, fonts, the account bar) settles,
 * unless the reader scrolls meanwhile.
 */
let pending: number | null = null;
const SETTLE_FRAMES = 20;

export const rememberScroll = () => {
  pending = window.scrollY;
};

export function ScrollKeeper() {
  useEffect(() => {
    if (pending === null) return;
    const y = pending;
    pending = null;
    let frame = 0;
    let handle = 0;
    let stopped = false;
    const stop = () => {
      stopped = true;
      cancelAnimationFrame(handle);
    };
    const keep = () => {
      if (stopped) return;
      if (Math.abs(window.scrollY - y) > 1) window.scrollTo({ top: y, behavior: "instant" });
      if (++frame < SETTLE_FRAMES) handle = requestAnimationFrame(keep);
    };
    keep();
    const events = ["wheel", "touchstart", "keydown", "mousedown"] as const;
    for (const e of events) window.addEventListener(e, stop, { passive: true, once: true });
    return () => {
      stop();
      for (const e of events) window.removeEventListener(e, stop);
    };
  }, []);
  return null;
}
