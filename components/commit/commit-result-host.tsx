"use client";

import dynamic from "next/dynamic";
import { useShownResult } from "@/components/commit/result-store";

// The result dialog's code is fetched with the commit flow's (which shows it), not on first load.
const CommitResultDialog = dynamic(() => import("@/components/commit/commit-result"), { ssr: false });

/**
 * Mounted once in the root layout: shows the commit result above the page, so the page can refresh
 * behind it (new count, the pledge in the list, "You're in") without closing it.
 */
export function CommitResultHost() {
  const shown = useShownResult();
  return shown ? <CommitResultDialog shown={shown} /> : null;
}
