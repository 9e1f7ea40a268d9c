import "server-only";
import { db, Prisma } from "@/lib/db";
import { CONFIRMED_STATUSES, COLLECTING_STATUSES } from "@/lib/events/lifecycle";
import { joinableSql, statusIn } from "@/lib/events/sql";
import { ENDING_SOON_MS } from "@/lib/campaigns/limits";
import type { HomeFilter, HomeSort } from "@/lib/campaigns/filters";

/**
 * The home list when it is searched or sorted other than newest first (issue 34), in SQL: the
 * full-text match and the sort orders are expressions Prisma's query builder has no words for.
 * The home's rules stay: approved only (admins see every approval state), pactions or no type; the
 * filters are lifecycle's (joinable for Active and ending, lib/events/sql.ts). It answers ids in
 * order; lib/campaigns/queries.ts reads the cards.
 */

/**
 * What a search matches: title (weight A), description (B) and the place a visitor may see (C) —
 * the venue, the public area, and the address only when it is not kept for attendees
 * (lib/campaigns/place.ts placeFor). The GIN index of migration 20261126193000_home_search is built on
 * this very expression (written there word for word: a test compares them).
 */
export const SEARCH_DOCUMENT = `(setweight(to_tsvector('english'::regconfig, coalesce("title", '')), 'A') || setweight(to_tsvector('english'::regconfig, coalesce("description", '')), 'B') || setweight(to_tsvector('english'::regconfig, coalesce("venue", '') || ' ' || coalesce("area", '') || ' ' || CASE WHEN "addressPrivate" THEN '' ELSE coalesce("address", '') END), 'C'))`;

// unqualified columns: the statements below read one table
const document = Prisma.raw(SEARCH_DOCUMENT);

function filterSql(filter: HomeFilter, now: Date) {
  switch (filter) {
    case "active":
      return joinableSql("c", now);
    case "funded":
      return Prisma.sql`c."status" IN (${statusIn(CONFIRMED_STATUSES)})`;
    case "ending":
      return Prisma.sql`${joinableSql("c", now)} AND c."deadline" <= ${new Date(now.getTime() + ENDING_SOON_MS)}`;
    default:
      return Prisma.sql`TRUE`;
  }
}

/**
 * - newest: created last first (with a search: the best match first, then the newest);
 * - ending: the nearest deadline still ahead first, then those past, latest first;
 * - nearly: events still collecting first, closest to their goal (count / goal) first, so 58 of 60
 *   leads; then the rest the same way.
 */
function orderSql(sort: HomeSort, now: Date, query: Prisma.Sql | null) {
  switch (sort) {
    case "ending":
      return Prisma.sql`(c."deadline" <= ${now}), CASE WHEN c."deadline" > ${now} THEN c."deadline" END ASC, c."deadline" DESC, c."id" DESC`;
    case "nearly":
      return Prisma.sql`(c."status" IN (${statusIn(COLLECTING_STATUSES)}) AND c."deadline" > ${now}) DESC, (c."committedCount"::float8 / GREATEST(c."goal", 1)) DESC, c."deadline" ASC, c."id" DESC`;
    default:
      return query
        ? Prisma.sql`ts_rank(${document}, ${query}) DESC, c."createdAt" DESC, c."id" DESC`
        : Prisma.sql`c."createdAt" DESC, c."id" DESC`;
  }
}

export type HomeSearch = {
  filter: HomeFilter;
  sort: HomeSort;
  /** websearch syntax; "" for none */
  q: string;
  isAdmin: boolean;
  now: Date;
};

/** The ids of one page of the searched or sorted home list, in order, and how many match in all. */
export async function searchHomeIds(
  s: HomeSearch,
  page: { pageSize: number; page: number },
): Promise<{ ids: string[]; total: number; page: number }> {
  const query = s.q ? Prisma.sql`websearch_to_tsquery('english'::regconfig, ${s.q})` : null;
  const where = Prisma.join(
    [
      s.isAdmin ? Prisma.sql`TRUE` : Prisma.sql`c."approvalStatus" = 'approved'`,
      Prisma.sql`(c."pactType" = 'paction' OR c."pactType" IS NULL)`,
      filterSql(s.filter, s.now),
      query ? Prisma.sql`${document} @@ ${query}` : Prisma.sql`TRUE`,
    ],
    " AND ",
  );
  const [{ total }] = await db.$queryRaw<{ total: number }[]>`
    SELECT count(*)::int AS total FROM "Campaign" c WHERE ${where}`;
  const pageCount = Math.max(1, Math.ceil(total / page.pageSize));
  const current = Math.min(Math.max(1, page.page), pageCount);
  const rows = await db.$queryRaw<{ id: string }[]>`
    SELECT c."id" FROM "Campaign" c WHERE ${where}
    ORDER BY ${orderSql(s.sort, s.now, query)}
    LIMIT ${page.pageSize} OFFSET ${(current - 1) * page.pageSize}`;
  return { ids: rows.map((r) => r.id), total, page: current };
}
