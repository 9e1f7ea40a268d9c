import type { PrivacyViewer } from "@/lib/privacy/rules";

/** Statuses an event can be cancelled from: anything not already over. */
export const CANCELLABLE_STATUSES = ["pending", "funded", "charging", "charged"] as const;

export const isCancellable = (status: string) => (CANCELLABLE_STATUSES as readonly string[]).includes(status);

/** The organiser cancels their event; admins may too (moderation). */
export function canCancelCampaign(viewer: PrivacyViewer, campaign: { creatorId: string }): boolean {
  return Boolean(viewer && (viewer.isAdmin || viewer.id === campaign.creatorId));
}
