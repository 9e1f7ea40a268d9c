/**
 * Issue 32: the decoding of a commitment's markers My commitments used before `Pledge.standing`
 * existed, written out independently of the migration's SQL, to check the column against.
 */
export type Markers = {
  withdrawnAt?: boolean;
  waitlistedAt?: boolean;
  memberSince?: boolean;
  minPeople?: number;
  promotedAt?: boolean;
  conditionReleasedAt?: boolean;
  waitlistClosedAt?: boolean;
  gaveUpAt?: boolean;
  droppedAt?: boolean;
  chargeStatus?: "none" | "processing" | "succeeded" | "failed" | "requires_action" | "refunded";
};

/** The old decoding (lib/pledges/mine.ts `present` before issue 32), as standings. */
export function referenceStanding(m: Markers): string {
  if (m.waitlistedAt && !m.withdrawnAt) return "waiting";
  if (m.conditionReleasedAt) return "released";
  if (m.waitlistClosedAt) return "waitlist_closed";
  if (m.gaveUpAt) return "gave_up";
  if (m.droppedAt) return "dropped";
  if (m.withdrawnAt) return "withdrawn";
  if (m.minPeople !== undefined && !m.memberSince) return "conditional";
  return "in";
}
