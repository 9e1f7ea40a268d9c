import "server-only";
import { z } from "zod";
import { db, type Prisma } from "@/lib/db";
import { pageNumberSchema } from "@/lib/ids";
import { cardSelect, type CampaignCard } from "@/lib/campaigns/queries";
import { isCrowdfund, isPaidEvent } from "@/lib/campaigns/lifecycle";
import { formatCents } from "@/lib/format";

/**
 * The admin dashboard (SPEC §6): totals, then the pending, approved and rejected events, each a
 * page at a time, newest first, optionally filtered by a search (title, organizer email or id).
 */
export const ADMIN_SECTION_LIMIT = 50;
export const ADMIN_SECTIONS = ["pending", "approved", "rejected"] as const;
export type AdminSectionName = (typeof ADMIN_SECTIONS)[number];
/** How many test events the delete dialog names. */
export const TEST_TITLES_SHOWN = 10;

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
  /** the newest test events' titles, for the delete dialog */
  testTitles: string[];
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
    db.campaign.findMany({
      where: { isTest: true },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: TEST_TITLES_SHOWN,
      select: { title: true },
    }),
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
        paid: isPaidEvent({ pactType, ticketPriceCents: c.ticketPriceCents }),
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
    testTitles: testRows.map((r) => r.title),
  };
}
