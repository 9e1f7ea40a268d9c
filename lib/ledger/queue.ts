import "server-only";
import { enqueue } from "@/lib/jobs/boss";

export const CHARGE_JOB = "charge-campaign";

/**
 * Queues the charge job of a campaign. The singletonKey names the campaign; should two jobs for one
 * campaign still run at once (standard queue policy, several instances), they are harmless: claims
 * hand them disjoint pledges. With jobs disabled (tests, CLI) nothing is queued and the sweeper or a
 * direct runCharging call does the work. Its own file so that what opens a place (lib/pledges)
 * can queue the charge of the one promoted without importing the charging pipeline.
 */
export async function requestCharging(campaignId: string): Promise<void> {
  await enqueue(CHARGE_JOB, { campaignId }, { singletonKey: `charge:${campaignId}` });
}
