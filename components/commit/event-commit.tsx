import "server-only";
import type { Viewer } from "@/lib/access/viewer";
import { env } from "@/lib/env";
import { paymentsMode } from "@/lib/payments/gateway";
import { eventCommitPanel } from "@/components/campaigns/event-data";
import { CommitSection } from "@/components/commit/commit-section";

/** The event page's commit panel: reads what the button needs and hands only that to the client. */
export async function EventCommit({ campaignId, viewer }: { campaignId: string; viewer: Viewer | null }) {
  const panel = await eventCommitPanel(campaignId, viewer);
  if (!panel) return null;
  const mode = paymentsMode();
  return (
    <CommitSection
      panel={panel}
      paymentsMode={mode}
      publishableKey={mode === "stripe" ? (env().NEXT_PUBLIC_STRIPE_PUBLISHABLE_KEY ?? null) : null}
    />
  );
}
