import "server-only";
import { z } from "zod";
import { db, Prisma } from "@/lib/db";
import { pageNumberSchema } from "@/lib/ids";
import { cardSelect, type CampaignCard } from "@/lib/campaigns/queries";
import { isCrowdfund, isPaidEvent } from "@/lib/events/lifecycle";
import { formatCents } from "@/lib/format";

/**
 * The admin dashboard (SPEC §6): totals, then the pending, approved and rejected events, each a
 * page at a time, newest first, optionally filtered by a search (title, organizer email or id).
 */
export const ADMIN_SECTION_LIMIT = 50;
export const ADMIN_SECTIONS = ["pending", "approved", "rejected"] as const;
export type AdminSectionName = (typeof ADMIN_SECTIONS)[number];
/** How many test events the delete dialog names (of those it deletes, and of those it keeps). */
export const TEST_TITLES_SHOWN = 10;

/**
 * Money on a pledge (issue 31): a charge made or tried (a payment intent, a charge state, `charged`),
 * a refund, a saved card not yet released, or any money row (issue 32: lib/ledger). Such a pledge is the app's only record of money at the
 * provider: it is never deleted. `p`: the pledge's alias in the query.
 */
export const pledgeHasMoneySql = (p: string) =>
  Prisma.raw(
    `(${p}."paymentIntentId" IS NOT NULL OR ${p}."refundId" IS NOT NULL OR ${p}."refundedAt" IS NOT NULL` +
      ` OR ${p}."paymentMethodId" IS NOT NULL OR ${p}."charged" OR ${p}."chargedAt" IS NOT NULL` +
      ` OR ${p}."chargeStatus" <> 'none'` +
      ` OR EXISTS (SELECT 1 FROM "MoneyMovement" mm WHERE mm."pledgeId" = ${p}."id"))`,
  );

/**
 * Money on an event (issue 31): a pledge with money on it (above) or any payout movement. The admin's
 * "Delete test events" keeps such events (they can be cancelled with refunds instead), and the
 * database refuses to delete an event with pledges or payouts at all (foreign keys RESTRICT).
 * `c`: the campaign's alias in the query.
 */
export const eventHasMoneySql = (c: string) =>
  Prisma.sql`(EXISTS (SELECT 1 FROM "Pledge" mp WHERE mp."campaignId" = ${Prisma.raw(`${c}."id"`)} AND ${pledgeHasMoneySql("mp")})
    OR EXISTS (SELECT 1 FROM "Payout" mo WHERE mo."campaignId" = ${Prisma.raw(`${c}."id"`)}))`;

export const adminSearchSchema = z.object({
  q: z.string().trim().max(100).optional().catch(undefined),
  pending: pageNumberSchema,
  approved: pageNumberSchema,
  rejected: pageNumberSchema,
});
export type AdminSearch = z.output<typeof adminSearchSchema>;

export type AdminRow = CampaignCard & {
  /** a paid event or a crowdfund: its rows show money */
  paid: boolean;
  /** "Goal: 50 attendees · 12 committed" or, for a crowdfund, "Goal: $1,000.00 · $600.00 pledged" */
  goalText: string;
  /** what the commitments are worth: the ticket price times the committed, or a crowdfund's pledges */
  committedCents: number;
  /** what was charged successfully so far */
  collectedCents: number;
};
export type AdminSection = { rows: AdminRow[]; total: number; page: number; pageCount: number };

export type AdminDashboard = {
  counts: { pending: number; approved: number; rejected: number; test: number };
  q: string | null;
  sections: Record<AdminSectionName, AdminSection>;
  /** the delete dialog: the newest titles of the test events it deletes and of those it keeps (money on them) */
  testEvents: { deletable: string[]; kept: string[]; keptCount: number };
};

function searchWhere(q: string | undefined): Prisma.CampaignWhereInput {
  if (!q) return {};
  return {
    OR: [
      { title: { contains: q, mode: "insensitive" } },
      { creatorEmail: { contains: q, mode: "insensitive" } },
      { id: q },
    ],
  };
}

export async function getAdminDashboard(
  search: AdminSearch = adminSearchSchema.parse({}),
): Promise<AdminDashboard> {
  const filter = searchWhere(search.q);
  const [groups, filtered, test, testRows, ...lists] = await Promise.all([
    db.campaign.groupBy({ by: ["approvalStatus"], _count: { _all: true } }),
    search.q ? db.campaign.groupBy({ by: ["approvalStatus"], where: filter, _count: { _all: true } }) : null,
    db.campaign.count({ where: { isTest: true } }),
    // the newest of each kind, and how many are kept, in one statement
    db.$queryRaw<{ title: string; kept: boolean; keptCount: number }[]>`
      SELECT "title", "kept", "keptCount" FROM (
        SELECT t.*, row_number() OVER (PARTITION BY "kept" ORDER BY "createdAt" DESC, "id" DESC) AS "rn",
          (count(*) FILTER (WHERE "kept") OVER ())::int AS "keptCount"
        FROM (SELECT c."id", c."title", c."createdAt", ${eventHasMoneySql("c")} AS "kept"
              FROM "Campaign" c WHERE c."isTest") t
      ) r
      WHERE "rn" <= ${TEST_TITLES_SHOWN}
      ORDER BY "createdAt" DESC, "id" DESC`,
    ...ADMIN_SECTIONS.map((approvalStatus) =>
      db.campaign.findMany({
        where: { approvalStatus, ...filter },
        orderBy: [{ createdAt: "desc" }, { id: "desc" }],
        skip: (search[approvalStatus] - 1) * ADMIN_SECTION_LIMIT,
        take: ADMIN_SECTION_LIMIT,
        select: { ...cardSelect, pactType: true, raisedCents: true },
      }),
    ),
  ]);
  const ids = lists.flat().map((c) => c.id);
  const collected = ids.length
    ? await db.pledge.groupBy({
        by: ["campaignId"],
        where: { campaignId: { in: ids }, chargeStatus: "succeeded" },
        _sum: { amountCents: true },
      })
    : [];
  const collectedOf = new Map(collected.map((g) => [g.campaignId, g._sum.amountCents ?? 0]));
  const countIn = (gs: typeof groups, s: string) => gs.find((g) => g.approvalStatus === s)?._count._all ?? 0;

  const sections = Object.fromEntries(
    ADMIN_SECTIONS.map((name, i) => {
      const total = countIn(filtered ?? groups, name);
      const rows: AdminRow[] = lists[i].map(({ pactType, raisedCents, ...c }) => ({
        ...c,
        // takes a card and money (a show-up deposit too): approval waits for payouts
        paid: isPaidEvent({ pactType, ticketPriceCents: c.ticketPriceCents, depositCents: c.depositCents }),
        goalText: isCrowdfund({ pactType })
          ? `Goal: ${formatCents(c.goal * 100)} · ${formatCents(Number(raisedCents))} pledged by ${c.committedCount}`
          : `Goal: ${c.goal} attendees · ${c.committedCount} committed`,
        committedCents: isCrowdfund({ pactType })
          ? Number(raisedCents)
          : c.ticketPriceCents * c.committedCount,
        collectedCents: collectedOf.get(c.id) ?? 0,
      }));
      const pageCount = Math.max(1, Math.ceil(total / ADMIN_SECTION_LIMIT));
      return [name, { rows, total, page: search[name], pageCount }];
    }),
  ) as Record<AdminSectionName, AdminSection>;

  return {
    counts: {
      pending: countIn(groups, "pending"),
      approved: countIn(groups, "approved"),
      rejected: countIn(groups, "rejected"),
      test,
    },
    q: search.q || null,
    sections,
    testEvents: {
      deletable: testRows.filter((r) => !r.kept).map((r) => r.title),
      kept: testRows.filter((r) => r.kept).map((r) => r.title),
      keptCount: testRows[0]?.keptCount ?? 0,
    },
  };
}
