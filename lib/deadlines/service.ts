import "server-only";
import { emailCampaignSelect } from "@/lib/campaigns/notifications";
import { db, Prisma } from "@/lib/db";
import { withEvent } from "@/lib/events/lock";
import { expire } from "@/lib/events/status";
import { kickEmailSender, queueEmails } from "@/lib/email/service";
import { deadlineReminderEmail, expiredEmail, type EmailCampaign } from "@/lib/campaigns/emails";
import { releaseSavedCards } from "@/lib/ledger/cards";
import { LIVE_PLEDGE, thresholdMet } from "@/lib/events/lifecycle";
import { isApproved } from "@/lib/access/rules";

/**
 * The deadline (DESIGN §1): pending events past their deadline below the threshold become
 * `expired` (nobody pays), their saved cards are released and everyone involved is emailed.
 * Every step is idempotent and safe on several instances at once: the status change and its
 * emails commit together under the campaign's row lock, and card release is resumable.
 */

const REMINDER_LEAD_MS = 48 * 3600_000;

const campaignSelect = {
  ...emailCampaignSelect,
  status: true,
  approvalStatus: true,
  pactType: true,
  raisedCents: true,
  creatorId: true,
  createdAt: true,
  reminderSentAt: true,
  creator: { select: { email: true, name: true, emailOptOut: true } },
} as const;

/** Ids of pending events whose deadline has passed (the ones expireCampaign will look at). */
async function listDueCampaigns(now = new Date(), take = 200): Promise<string[]> {
  const rows = await db.campaign.findMany({
    where: { status: "pending", deadline: { lte: now } },
    orderBy: { deadline: "asc" },
    take,
    select: { id: true },
  });
  return rows.map((r) => r.id);
}

/**
 * Expires one event if it is still pending, past its deadline and below the threshold. Returns
 * true when this call expired it. The emails are written in the same transaction.
 */
export async function expireCampaign(campaignId: string, now = new Date()): Promise<boolean> {
  return db.$transaction((tx) =>
    withEvent(
      tx,
      campaignId,
      async (locked) => {
        if (!locked) return false;
        const c = await tx.campaign.findUniqueOrThrow({ where: { id: campaignId }, select: campaignSelect });
        // A pending event at its threshold is the charging path's business, not the deadline's.
        if (thresholdMet(c)) return false;
        await expire(tx, campaignId, now);
        const pledges = await tx.pledge.findMany({
          where: { campaignId, ...LIVE_PLEDGE },
          select: { userId: true, user: { select: { email: true, name: true } } },
        });
        const ec: EmailCampaign = c;
        const emails = pledges.map((p) =>
          expiredEmail(ec, { userId: p.userId, email: p.user.email, name: p.user.name }, "backer"),
        );
        if (isApproved(c) || pledges.length > 0) {
          emails.push(
            expiredEmail(
              ec,
              { userId: c.creatorId, email: c.creator.email, name: c.creator.name },
              "organizer",
            ),
          );
        }
        await queueEmails(tx, emails);
        return true;
      },
      { when: Prisma.sql`status = 'pending' AND deadline <= ${now}` },
    ),
  );
}

/**
 * 48 hours before the deadline: one reminder to the organizer and the committers of approved
 * events still below the threshold ("needs N more"). Events created less than 48 hours before
 * their deadline never had that moment and get none. Users who unsubscribed are skipped.
 */
export async function sendDeadlineReminders(now = new Date(), take = 200): Promise<number> {
  // Events created inside the window are left out by the query itself, and the nearest deadlines
  // come first: a batch never fills with events that get no reminder (they were skipped but never
  // marked, so enough of them blocked every other reminder).
  const due = await db.$queryRaw<{ id: string }[]>`
    SELECT id FROM "Campaign"
    WHERE status = 'pending' AND "approvalStatus" = 'approved' AND "reminderSentAt" IS NULL
      AND deadline > ${now} AND deadline <= ${new Date(now.getTime() + REMINDER_LEAD_MS)}
      AND deadline - "createdAt" >= ${`${REMINDER_LEAD_MS} milliseconds`}::interval
    ORDER BY deadline ASC, id ASC
    LIMIT ${take}`;
  let reminded = 0;
  for (const d of due) {
    const done = await db.$transaction((tx) =>
      withEvent(
        tx,
        d.id,
        async (locked) => {
          if (!locked) return false;
          const c = await tx.campaign.findUniqueOrThrow({ where: { id: d.id }, select: campaignSelect });
          await tx.campaign.update({ where: { id: c.id }, data: { reminderSentAt: now } });
          if (thresholdMet(c)) return false;
          const pledges = await tx.pledge.findMany({
            where: { campaignId: c.id, ...LIVE_PLEDGE, user: { emailOptOut: false } },
            select: { userId: true, user: { select: { email: true, name: true } } },
          });
          const emails = pledges.map((p) =>
            deadlineReminderEmail(c, { userId: p.userId, email: p.user.email, name: p.user.name }, "backer"),
          );
          if (!c.creator.emailOptOut)
            emails.push(
              deadlineReminderEmail(
                c,
                { userId: c.creatorId, email: c.creator.email, name: c.creator.name },
                "organizer",
              ),
            );
          await queueEmails(tx, emails);
          return true;
        },
        { when: Prisma.sql`status = 'pending' AND "reminderSentAt" IS NULL` },
      ),
    );
    if (done) reminded++;
  }
  return reminded;
}

/** One run of the deadline job. */
export async function runDeadlines(
  now = new Date(),
): Promise<{ expired: number; released: number; reminded: number }> {
  let expired = 0;
  for (const id of await listDueCampaigns(now)) if (await expireCampaign(id, now)) expired++;
  const released = await releaseSavedCards();
  const reminded = await sendDeadlineReminders(now);
  if (expired + reminded > 0) await kickEmailSender();
  return { expired, released, reminded };
}
