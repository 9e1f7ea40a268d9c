/** Who may trigger the manual charge of a campaign (SPEC §6: the creator; admins too). */
export function canOverseeEvent(
  viewer: { id: string; isAdmin: boolean } | null,
  campaign: { creatorId: string },
): boolean {
  return Boolean(viewer && (viewer.isAdmin || viewer.id === campaign.creatorId));
}

/** A pledge whose charge is claimed but not recorded for this long is presumed abandoned (crash). */
export const STALE_CLAIM_MS = 5 * 60_000;
