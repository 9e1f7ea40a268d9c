import "server-only";
import { db, Prisma } from "@/lib/db";
import { toldAtPromotionSql } from "@/lib/campaigns/waitlist-emails";
import { livePledgeSql, statusIn } from "@/lib/events/sql";
import { CONFIRMED_STATUSES } from "@/lib/events/lifecycle";
import { queueCommitEmail, queueConfirmedEmails, queueModerationEmail } from "@/lib/campaigns/notifications";
import {
  dueOrganizerEmails,
  queueOrganizerChargedEmail,
  queueOrganizerTippedEmail,
} from "@/lib/charging/emails";

/**
 * Emails derived from committed state, for causes whose services do not (yet) queue their email
 * inside their own transaction: a new pledge, a charged pledge of a confirmed event, a moderation
 * decision, an event that tipped or finished charging (to its organizer). Each run looks for causes of the last `windowMs` without their email in the outbox and
 * queues it with the same dedupe key the in-transaction hooks (lib/campaigns/notifications.ts) use, so
 * a cause yields exactly one email whichever path gets there first, and a crash anywhere loses
 * nothing: the cause is durable and the next run finds it.
 */
export async function queueDerivedEmails(
  now = new Date(),
  windowMs = 24 * 3600_000,
  take = 500,
): Promise<number> {
  const since = new Date(now.getTime() - windowMs);
  let queued = 0;

  const commits = await db.$queryRaw<{ id: string }[]>`
    SELECT p.id FROM "Pledge" p
    WHERE p."createdAt" > ${since} AND ${livePledgeSql("p")} AND p."promotedAt" IS NULL
      AND NOT EXISTS (SELECT 1 FROM "EmailOutbox" o WHERE o."dedupeKey" = 'commit:' || p.id || ':' || p."userId")
    ORDER BY p."createdAt" ASC LIMIT ${take}`;
  for (const p of commits) if (await db.$transaction((tx) => queueCommitEmail(tx, p.id))) queued++;

  const confirmed = await db.$queryRaw<{ id: string; campaignId: string }[]>`
    SELECT p.id, p."campaignId" FROM "Pledge" p JOIN "Campaign" c ON c.id = p."campaignId"
    WHERE p.charged = true AND p."chargedAt" > ${since} AND ${livePledgeSql("p")} AND c.status IN (${statusIn(CONFIRMED_STATUSES)})
      -- one promoted into the confirmed event gets its door ticket alone (issue 36), anyone else "Event Confirmed!"
      AND NOT EXISTS (SELECT 1 FROM "EmailOutbox" o WHERE o."dedupeKey" =
        CASE WHEN ${Prisma.raw(toldAtPromotionSql("p", "c"))} THEN 'ticket:' ELSE 'confirmed:' END || p."campaignId" || ':' || p."userId")
    ORDER BY p."chargedAt" ASC LIMIT ${take}`;
  for (const p of confirmed)
    queued += await db.$transaction((tx) => queueConfirmedEmails(tx, p.campaignId, p.id));

  const decisions = await db.$queryRaw<{ id: string }[]>`
    SELECT m.id FROM "ModerationLog" m JOIN "Campaign" c ON c.id = m."campaignId"
    WHERE m."createdAt" > ${since} AND m."toStatus" IN ('approved', 'rejected')
      AND NOT EXISTS (SELECT 1 FROM "EmailOutbox" o WHERE o."dedupeKey" = 'moderation:' || m.id || ':' || c."creatorId")
    ORDER BY m."createdAt" ASC LIMIT ${take}`;
  for (const m of decisions) if (await db.$transaction((tx) => queueModerationEmail(tx, m.id))) queued++;

  // The organizer's "reached its goal" and "charging is done" (lib/charging/emails.ts).
  const organizer = await dueOrganizerEmails(since, take);
  for (const id of organizer.tipped)
    if (await db.$transaction((tx) => queueOrganizerTippedEmail(tx, id))) queued++;
  for (const id of organizer.charged)
    if (await db.$transaction((tx) => queueOrganizerChargedEmail(tx, id))) queued++;

  return queued;
}
