import { AppError } from "@/lib/errors";

/** Who may trigger the manual charge of a campaign (SPEC §6: the creator; admins too). */
export function canChargeManually(viewer: { id: string; isAdmin: boolean } | null, campaign: { creatorId: string }): boolean {
  return Boolean(viewer && (viewer.isAdmin || viewer.id === campaign.creatorId));
}

export function assertCanChargeManually(viewer: { id: string; isAdmin: boolean } | null, campaign: { creatorId: string }) {
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  if (!canChargeManually(viewer, campaign)) throw new AppError("FORBIDDEN", "Only the organiser of this event or an admin can charge its attendees.");
}

/** Charging states a campaign is in once its threshold has been crossed. */
export const CHARGEABLE_STATUSES = ["funded", "charging", "charged"] as const;

/** A pledge whose charge is claimed but not recorded for this long is presumed abandoned (crash). */
export const STALE_CLAIM_MS = 5 * 60_000;
