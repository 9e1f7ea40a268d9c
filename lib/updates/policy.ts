import type { PrivacyViewer } from "@/lib/privacy/rules";

/** Only the organiser (creator) posts updates to their committers; admins moderate, they do not speak for organisers. */
export function canPostUpdate(
  viewer: PrivacyViewer,
  campaign: { creatorId: string; status: string },
): boolean {
  return Boolean(viewer && viewer.id === campaign.creatorId);
}
