import "server-only";
import type { Viewer } from "@/lib/access/viewer";
import { getManageView, listManagedPledges } from "@/lib/pledges/manage-queries";
import { organizerStatusText } from "@/lib/events/story";
import { csvCell } from "@/lib/format";
import { checkInTimesOf } from "@/lib/tickets/check-in";
import { DEPOSIT_CSV_WORDS, depositStatesOf } from "@/lib/pledges/deposits";

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
  const all = await listManagedPledges(campaignId, {
    paid: view.campaign.paid,
    cancelled: view.campaign.status === "cancelled",
  });
  // issue 36: when the place was checked in at the door
  const checkedIn = await checkInTimesOf(campaignId);
  // issue 36: the show-up deposit's state (lib/events/deposit), "—" at an event without one
  const deposits = await depositStatesOf(all.map((p) => p.id));
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
    "Charged (USD)",
    "Refunded (USD)",
    "Deposit",
    "Seat",
    "Checked in at (UTC)",
  ];
  const lines = all.map((p) =>
    [
      p.contributor,
      p.email,
      p.createdAt,
      (p.amountCents / 100).toFixed(2),
      organizerStatusText(p.status),
      p.chargedAt ?? "",
      p.cardLast4 ? `${p.cardBrand ?? "card"} ${p.cardLast4}` : "",
      p.chargeFailureCode ?? "",
      p.waitlistPosition === null ? "" : String(p.waitlistPosition),
      p.promotedAt ?? "",
      p.minPeople === null ? "" : String(p.minPeople),
      p.counted ? "yes" : "no",
      // issue 34: the money rows, which add up to the payout ledger's Collected and Refunded
      (p.chargedCents / 100).toFixed(2),
      (p.refundedCents / 100).toFixed(2),
      DEPOSIT_CSV_WORDS[deposits.get(p.id) ?? "none"],
      // issue 37: a seat of a group ("Holds 3 seats", "Guest 1")
      p.seat ?? "",
      checkedIn.get(p.id)?.toISOString() ?? "",
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
