import "server-only";
import type { Viewer } from "@/lib/access/viewer";
import { eventCommitments } from "@/components/campaigns/event-data";
import { CommitmentsList } from "@/components/commit/commitments-list";

/**
 * The event page's commitments list. Identities are resolved by lib/privacy on the server; the
 * client list receives labels only (no user id, name or email for hidden attendees).
 */
export async function EventCommitments({
  campaignId,
  viewer,
  crowdfund,
}: {
  campaignId: string;
  viewer: Viewer | null;
  crowdfund: boolean;
}) {
  const { items, total } = await eventCommitments(campaignId, viewer);
  return (
    <CommitmentsList
      key={`${items[0]?.key ?? ""}-${total}`}
      campaignId={campaignId}
      items={items}
      total={total}
      crowdfund={crowdfund}
    />
  );
}
