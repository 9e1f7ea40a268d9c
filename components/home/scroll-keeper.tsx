"use client";

import { useEffect } from "react";

/**
 * Keeps the reader where they were when a filter chip or page link loads another grid (issue 17):
 * the cached copies are separate routes, so Next remounts the page and the browser would land at
 * the top. The link remembers the position; the next grid puts it back once it has rendered.
 */
let pending: number | null = null;

export const rememberScroll = () => {
  pending = window.scrollY;
};

export function ScrollKeeper() {
  useEffect(() => {
    if (pending === null) return;
    const y = pending;
    pending = null;
    window.scrollTo({ top: y, behavior: "instant" });
  }, []);
  return null;
}
