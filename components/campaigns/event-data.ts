import "server-only";
import { cache } from "react";
import type { Viewer } from "@/lib/access/viewer";
import { getCascade, getCommitPanel, listEventCommitments } from "@/lib/pledges/queries";
import { getCommentsView } from "@/lib/comments/queries";
import { getUpdatesView } from "@/lib/updates/queries";
import { getShareInfo } from "@/lib/sharing/queries";

/*
 * The event page's reads, one per section, memoised for the request (React cache; arguments are
 * the campaign id, the request's viewer object and the render time in ms). The page starts them
 * all at once with loadEventPage before it renders, so the sections find their data ready and
 * the page renders in one pass instead of streaming in a dozen pieces (issue 8: less work per
 * signed-in render). The sections call the same functions, so each also works on its own.
 */
export const eventCommitPanel = cache((campaignId: string, viewer: Viewer | null) =>
  getCommitPanel(campaignId, viewer),
);
export const eventCommitments = cache((campaignId: string, viewer: Viewer | null) =>
  listEventCommitments(campaignId, viewer),
);
export const eventComments = cache((campaignId: string, viewer: Viewer | null, nowMs: number) =>
  getCommentsView(campaignId, viewer, new Date(nowMs)),
);
export const eventUpdates = cache((campaignId: string, viewer: Viewer | null) =>
  getUpdatesView(campaignId, viewer),
);
export const eventShareInfo = cache((campaignId: string, viewer: Viewer | null) =>
  getShareInfo(campaignId, viewer),
);

export const eventCascade = cache((campaignId: string) => getCascade(campaignId));

export async function loadEventPage(campaignId: string, viewer: Viewer | null, nowMs: number): Promise<void> {
  await Promise.all([
    eventCommitPanel(campaignId, viewer),
    eventCommitments(campaignId, viewer),
    eventComments(campaignId, viewer, nowMs),
    eventUpdates(campaignId, viewer),
    eventShareInfo(campaignId, viewer),
    eventCascade(campaignId),
  ]);
}
