import "server-only";
import { Prisma } from "@/lib/db";
import { statusIn } from "@/lib/events/sql";
import { CONFIRMED_STATUSES, SETTLING_STATUSES } from "@/lib/events/lifecycle";

/**
 * An event's status moves (issue 32): `Campaign.status` is written here and nowhere else
 * (npm run check:structure). Each move is a named transition (DESIGN §1: pending → funded → charging
 * → charged; pending → expired; not over → cancelled). The ones that decide under the event's row
 * lock take `tx` inside withEvent (lib/events/lock.ts); the charging pipeline's moves are
 * compare-and-set on the status they leave, so they need no lock and never serialise charge
 * results on the event row.
 */

type Tx = Prisma.TransactionClient;
const one = { select: { id: true } } as const;

/** tip (paid): a collecting event reached its goal — `funded`; the charging job charges its members. */
export async function tip(tx: Tx, campaignId: string, now: Date): Promise<void> {
  await tx.campaign.update({
    where: { id: campaignId },
    data: { status: "funded", fundedAt: now, lastStatusUpdate: now },
    ...one,
  });
}

/**
 * tip (free): a collecting free event reached its goal — `charged` at once, `confirmed` being the
 * members confirmed with it (lib/ledger/pledge-state confirmFreePledges).
 */
export async function tipFree(tx: Tx, campaignId: string, now: Date, confirmed: number): Promise<void> {
  await tx.campaign.update({
    where: { id: campaignId },
    data: {
      status: "charged",
      fundedAt: now,
      chargedAt: now,
      chargeType: "free",
      totalCharged: confirmed,
      lastStatusUpdate: now,
    },
    ...one,
  });
}

/** go ahead: the organizer confirms the event below its goal with `members` (issue 21). */
export async function goAhead(
  tx: Tx,
  campaignId: string,
  now: Date,
  members: number,
  free: boolean,
): Promise<void> {
  await tx.campaign.update({
    where: { id: campaignId },
    data: {
      status: free ? "charged" : "funded",
      fundedAt: now,
      goAheadAt: now,
      goAheadCount: members,
      lastStatusUpdate: now,
      ...(free ? { chargedAt: now, chargeType: "free" as const } : {}),
    },
    ...one,
  });
}

/** expire: the deadline passed below the goal. */
export async function expire(tx: Tx, campaignId: string, now: Date): Promise<void> {
  await tx.campaign.update({
    where: { id: campaignId },
    data: { status: "expired", lastStatusUpdate: now },
    ...one,
  });
}

/** cancel: the organizer (or an admin) calls the event off, with an optional reason for backers (issue 34). */
export async function cancel(
  tx: Tx,
  campaignId: string,
  now: Date,
  reason: string | null = null,
): Promise<void> {
  await tx.campaign.update({
    where: { id: campaignId },
    data: { status: "cancelled", cancelledAt: now, cancelReason: reason, lastStatusUpdate: now },
    ...one,
  });
}

/** charging starts: `funded` → `charging` (no-op from any other status). */
export async function beginCharging(client: Tx, campaignId: string, now: Date): Promise<void> {
  await client.campaign.updateMany({
    where: { id: campaignId, status: "funded" },
    data: { status: "charging", lastStatusUpdate: now },
  });
}

/**
 * charged (free): a confirmed free event still settling is `charged` with no money (its total is
 * set by the caller, after confirming its pledges). Returns whether this call moved it.
 */
export async function chargedFree(tx: Tx, campaignId: string, now: Date): Promise<boolean> {
  const moved = await tx.campaign.updateMany({
    where: { id: campaignId, status: { in: [...SETTLING_STATUSES] } },
    data: {
      status: "charged",
      chargedAt: now,
      chargeType: "free",
      totalChargedCents: 0,
      lastStatusUpdate: now,
    },
  });
  return moved.count > 0;
}

/**
 * charged (paid): once no member is left to charge, a confirmed event is `charged` with the totals
 * of its succeeded paid charges (idempotent: recomputes them; true when it wrote anything).
 * `pending` is the SQL of "a member still to charge" (`p` a pledge of the event), from the caller.
 */
export async function chargedPaid(client: Tx, campaignId: string, pending: Prisma.Sql): Promise<boolean> {
  const n = await client.$executeRaw`
    UPDATE "Campaign" AS c SET
      "status" = 'charged', "chargedAt" = COALESCE(c."chargedAt", now()), "chargeType" = 'paid',
      "totalCharged" = t."n", "totalChargedCents" = t."cents", "lastStatusUpdate" = now()
    FROM (
      SELECT count(*)::int AS "n", COALESCE(sum("amountCents"), 0)::bigint AS "cents"
      FROM "Pledge" WHERE "campaignId" = ${campaignId} AND "chargeStatus" = 'succeeded' AND "chargeType" = 'paid'
    ) AS t
    WHERE c."id" = ${campaignId} AND c."status" IN (${statusIn(CONFIRMED_STATUSES)})
      AND (c."status" <> 'charged' OR c."totalCharged" <> t."n" OR c."totalChargedCents" <> t."cents")
      AND NOT EXISTS (SELECT 1 FROM "Pledge" p WHERE p."campaignId" = ${campaignId} AND ${pending})`;
  return n > 0;
}
