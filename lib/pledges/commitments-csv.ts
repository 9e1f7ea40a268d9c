import "server-only";
import type { Viewer } from "@/lib/auth/viewer";
import { getManageView, listManagedPledges, type ManageCommitment } from "@/lib/pledges/manage-queries";

/**
 * The organizer's CSV of every commitment (SPEC §6), beside the manage page it mirrors: one row per
 * commitment with its charge state in words, its place on the waitlist (issue 20) and its personal
 * threshold (issue 21). Cells are quoted and formula characters neutralised.
 */

/** CSV export of a campaign's commitments (creator only); null when not permitted. */
export async function getCommitmentsCsv(
  campaignId: string,
  viewer: Viewer | null,
): Promise<{ filename: string; csv: string } | null> {
  const view = await getManageView(campaignId, viewer);
  if (!view) return null;
  const all = await listManagedPledges(campaignId);
  const header = [
    "Contributor",
    "Email",
    "Committed at (UTC)",
    "Amount (USD)",
    "Status",
    "Charged at (UTC)",
    "Card",
    "Failure code",
    "Waitlist position",
    "Promoted at (UTC)",
    "Condition (at least N people)",
    "Counted",
  ];
  const lines = all.map((p) =>
    [
      p.contributor,
      p.email,
      p.createdAt,
      (p.amountCents / 100).toFixed(2),
      chargeStateLabel(p),
      p.chargedAt ?? "",
      p.cardLast4 ? `${p.cardBrand ?? "card"} ${p.cardLast4}` : "",
      p.chargeFailureCode ?? "",
      p.waitlistPosition === null ? "" : String(p.waitlistPosition),
      p.promotedAt ?? "",
      p.minPeople === null ? "" : String(p.minPeople),
      p.member ? "yes" : "no",
    ]
      .map(csvCell)
      .join(","),
  );
  const slug =
    view.campaign.title
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 40) || "campaign";
  return {
    filename: `${slug}-commitments.csv`,
    csv: [header.map(csvCell).join(","), ...lines].join("\r\n") + "\r\n",
  };
}

/** One CSV cell: quoted, and a leading formula character neutralised (spreadsheet injection). */
export function csvCell(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The charge state of a pledge in words, shared by the manage page and the CSV. */
export function chargeStateLabel(
  p: Pick<
    ManageCommitment,
    | "charged"
    | "verified"
    | "chargeStatus"
    | "chargeFailureCode"
    | "withdrawnAt"
    | "recovery"
    | "waitlistPosition"
    | "waitlistPaused"
    | "gaveUpAt"
    | "waitlistClosedAt"
    | "amountCents"
    | "conditionReleasedAt"
    | "member"
    | "minPeople"
  >,
): string {
  if (p.waitlistPosition !== null)
    return p.waitlistPaused
      ? `Waitlisted (#${p.waitlistPosition}), card declined at promotion: waiting for a new card`
      : `Waitlisted (#${p.waitlistPosition})`;
  if (p.waitlistClosedAt) return "Waitlist closed at the start (not charged)";
  if (p.conditionReleasedAt) return "Condition not met by the deadline (released, not charged)";
  if (!p.member && !p.withdrawnAt && p.minPeople !== null) return `Counts once ${p.minPeople} are in`;
  if (p.gaveUpAt)
    return p.chargeStatus === "refunded"
      ? "Gave up place (refunded)"
      : p.chargeStatus === "succeeded" && p.amountCents > 0
        ? "Gave up place (refund once the place is paid for)"
        : "Gave up place";
  if (p.recovery === "dropped") return "Dropped (not paid in time)";
  if (p.withdrawnAt) return p.chargeStatus === "refunded" ? "Withdrawn (refunded)" : "Withdrawn";
  if (p.chargeStatus === "refunded") return "Refunded";
  if (p.charged) return "Charged";
  if (p.chargeStatus === "processing") return "Charging";
  if (p.chargeStatus === "requires_action") return "Needs authentication";
  if (p.chargeStatus === "failed")
    return `Failed${p.chargeFailureCode ? ` (${p.chargeFailureCode})` : ""}${p.recovery === "retrying" ? ", will be retried" : ""}`;
  return p.verified ? "Verified" : "Pending";
}
