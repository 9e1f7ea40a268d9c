import "server-only";
import { tip, tipFree } from "@/lib/events/status";
import { release, setConfirmed, setMembers } from "@/lib/events/counters";
import { withEvent } from "@/lib/events/lock";
import { db, Prisma } from "@/lib/db";
import { livePledgeSql, memberPledgeSql, statusIn } from "@/lib/events/sql";
import {
  CONFIRMED_STATUSES,
  isConfirmed,
  isFreeEvent,
  isCollecting,
  thresholdMet,
} from "@/lib/events/lifecycle";
import { memberCount } from "@/lib/campaigns/thresholds";
import { confirmFreePledges } from "@/lib/ledger/pledge-state";
import { emailCampaignSelect, queueConfirmedEmails, queueToEach } from "@/lib/campaigns/notifications";
import { kickEmailSender } from "@/lib/email/service";
import { conditionUnmetEmail } from "@/lib/campaigns/condition-emails";
import { releaseSavedCards } from "@/lib/ledger/cards";

/**
 * Personal thresholds (issue 21, DESIGN §1 "personal thresholds"): who counts. A commitment may say
 * "only count me if at least N people are in"; the members are the largest set whose conditions all
 * hold (lib/events/lifecycle memberCount). Recounted inside the transaction of whatever changed
 * who holds a place — a commit, a withdrawal, a promotion — under the campaign row lock, so two
 * recounts never interleave. Before the tip membership follows the conditions both ways (nothing is
 * charged yet); from the tip on a member stays a member (they are charged, their commitment binding)
 * and a condition that comes to hold joins — and is charged — at once.
 */

type Tx = Prisma.TransactionClient;

/**
 * Recounts the members of a campaign with conditions; returns the members and the pledges that
 * joined now. A campaign without any condition is left alone (every commitment there is a member,
 * kept by the commit's own counters).
 */
export async function recountMembers(
  tx: Tx,
  campaignId: string,
  now: Date,
): Promise<{ members: number; joined: string[] }> {
  const [c] = await tx.$queryRaw<
    { status: string; hasConditions: boolean; committedCount: number; deadline: Date }[]
  >`
    SELECT status::text AS status, "hasConditions", "committedCount", deadline FROM "Campaign" WHERE id = ${campaignId}`;
  if (!c?.hasConditions) return { members: c?.committedCount ?? 0, joined: [] };
  const tipped = isConfirmed(c.status);
  // Membership moves only while it can matter: collecting before the deadline (after it the
  // outcome is the deadline's: tip or expiry on the count it found), or confirmed. An event called
  // off keeps what it had.
  const collecting = isCollecting(c, now);
  if (!tipped && !collecting) return { members: c.committedCount, joined: [] };
  // after the tip a member's condition is settled: it counts as no condition
  const rows = await tx.$queryRaw<{ n: number; count: number }[]>`
    SELECT CASE WHEN ${tipped} AND "memberSince" IS NOT NULL THEN 1 ELSE COALESCE("minPeople", 1) END AS n, count(*)::int AS count
    FROM "Pledge" WHERE "campaignId" = ${campaignId} AND ${livePledgeSql()} GROUP BY 1`;
  const k = memberCount(new Map(rows.map((r) => [r.n, r.count])));
  const joined = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "Pledge" SET "memberSince" = ${now}
    WHERE "campaignId" = ${campaignId} AND ${livePledgeSql()} AND "memberSince" IS NULL AND COALESCE("minPeople", 1) <= ${k}
    RETURNING id`;
  if (!tipped)
    await tx.$executeRaw`
      UPDATE "Pledge" SET "memberSince" = NULL
      WHERE "campaignId" = ${campaignId} AND ${livePledgeSql()} AND "memberSince" IS NOT NULL AND "minPeople" > ${k}`;
  await setMembers(tx, campaignId, k);
  return { members: k, joined: joined.map((j) => j.id) };
}

/**
 * The tip (SPEC §4 threshold, DESIGN §1): a collecting campaign whose members reached the goal
 * before its deadline moves on — a paid one to `funded` (the charging job charges its members), a
 * free one to `charged` with every member confirmed and emailed. Inside the caller's transaction,
 * the row locked. Returns the new status, or null when it did not tip.
 */
export async function tipIfReached(
  tx: Tx,
  campaignId: string,
  now: Date,
): Promise<"funded" | "charged" | null> {
  const c = await tx.campaign.findUnique({
    where: { id: campaignId },
    select: {
      status: true,
      goal: true,
      committedCount: true,
      raisedCents: true,
      deadline: true,
      ticketPriceCents: true,
      depositCents: true,
      pactType: true,
    },
  });
  if (!c || !isCollecting(c, now) || !thresholdMet(c)) return null;
  if (!isFreeEvent(c)) {
    await tip(tx, campaignId, now);
    return "funded";
  }
  const confirmed = await confirmFreePledges(tx, campaignId, now);
  await tipFree(tx, campaignId, now, confirmed);
  await queueConfirmedEmails(tx, campaignId);
  return "charged";
}

/**
 * Members who joined a confirmed free event are confirmed at once (a paid one's are charged by the
 * charging job, which reads them as uncharged members).
 */
export async function confirmJoinedIfFree(tx: Tx, campaignId: string, joined: string[], now: Date) {
  if (joined.length === 0) return;
  const c = await tx.campaign.findUniqueOrThrow({
    where: { id: campaignId },
    select: { status: true, ticketPriceCents: true, pactType: true, depositCents: true },
  });
  if (!isConfirmed(c.status) || !isFreeEvent(c)) return;
  const total = await confirmFreePledges(tx, campaignId, now);
  await setConfirmed(tx, campaignId, total);
  for (const id of joined) await queueConfirmedEmails(tx, campaignId, id);
}

/**
 * At the deadline (DESIGN §1 "personal thresholds": the rest are released at the deadline) every
 * commitment of a confirmed event whose condition still does not hold is released: withdrawn, never
 * charged, told so, its card released. An event that did not tip expires as it always did. Every
 * minute with the deadlines job; returns how many it released.
 */
export async function releaseUnmetConditions(now = new Date(), take = 200): Promise<number> {
  const due = await db.$queryRaw<{ campaignId: string }[]>`
    SELECT DISTINCT p."campaignId" FROM "Pledge" p JOIN "Campaign" c ON c.id = p."campaignId"
    WHERE c."hasConditions" AND c.deadline <= ${now} AND c.status IN (${statusIn(CONFIRMED_STATUSES)})
      AND ${livePledgeSql("p")} AND p."memberSince" IS NULL
    LIMIT ${take}`;
  let released = 0;
  for (const { campaignId } of due) {
    const gone = await db.$transaction((tx) =>
      withEvent(tx, campaignId, async () => {
        const rows = await tx.$queryRaw<
          { id: string; userId: string; amount: number; amountCents: number; minPeople: number }[]
        >`
        UPDATE "Pledge" SET "withdrawnAt" = ${now}, "conditionReleasedAt" = ${now}
        WHERE "campaignId" = ${campaignId} AND ${livePledgeSql()} AND "memberSince" IS NULL AND "chargeStatus" <> 'processing'
        RETURNING id, "userId", amount, "amountCents", "minPeople"`;
        if (rows.length === 0) return rows;
        await release(tx, campaignId, {
          people: rows.length,
          amount: rows.reduce((s, r) => s + r.amount, 0),
          cents: rows.reduce((s, r) => s + r.amountCents, 0),
        });
        const c = await tx.campaign.findUniqueOrThrow({
          where: { id: campaignId },
          select: emailCampaignSelect,
        });
        await queueToEach(tx, rows, (r, to) => conditionUnmetEmail(c, to, r.id, r.minPeople));
        return rows;
      }),
    );
    for (const r of gone) await releaseSavedCards(1, r.id).catch(() => 0);
    released += gone.length;
  }
  if (released > 0) void kickEmailSender();
  return released;
}

/** A commitment counts toward the goal now (a member). */
export async function isMember(tx: Tx, pledgeId: string): Promise<boolean> {
  const rows = await tx.$queryRaw<{ member: boolean }[]>`
    SELECT ${memberPledgeSql()} AS member FROM "Pledge" WHERE id = ${pledgeId}`;
  return rows[0]?.member === true;
}
