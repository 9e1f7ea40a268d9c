import "server-only";
import { emailCampaignSelect } from "@/lib/campaigns/notifications";
import { db } from "@/lib/db";
import { LIVE_PLEDGE } from "@/lib/events/lifecycle";
import { queueEmail } from "@/lib/email/service";
import { organizerCommitDigestEmail } from "@/lib/campaigns/emails";

const HOUR = 3600_000;

/** "2026-11-21T15" for the UTC hour that contains `t`. */
export const hourKey = (t: Date) => t.toISOString().slice(0, 13);

/**
 * Organizers hear about new commitments at most once an hour: for each of the last `hours`
 * complete UTC hours, one email per event that got commitments in that hour. The dedupe key names
 * the hour, so running this often (or on several instances, or again after downtime) never sends a
 * second email for an hour. Organizers who unsubscribed get none.
 */
export async function queueOrganizerDigests(now = new Date(), hours = 3): Promise<number> {
  const currentHour = Math.floor(now.getTime() / HOUR) * HOUR;
  let queued = 0;
  for (let h = 1; h <= hours; h++) {
    const from = new Date(currentHour - h * HOUR);
    const to = new Date(currentHour - (h - 1) * HOUR);
    const groups = await db.pledge.groupBy({
      by: ["campaignId"],
      where: { createdAt: { gte: from, lt: to }, ...LIVE_PLEDGE },
      _count: { _all: true },
    });
    for (const g of groups) {
      const c = await db.campaign.findUnique({
        where: { id: g.campaignId },
        select: {
          ...emailCampaignSelect,
          creatorId: true,
          creator: { select: { email: true, name: true, emailOptOut: true } },
        },
      });
      if (!c || c.creator.emailOptOut) continue;
      const email = organizerCommitDigestEmail(
        c,
        { userId: c.creatorId, email: c.creator.email, name: c.creator.name },
        g._count._all,
        hourKey(from),
      );
      if (await db.$transaction((tx) => queueEmail(tx, email))) queued++;
    }
  }
  return queued;
}
