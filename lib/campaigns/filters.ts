import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import {
  CONFIRMED_STATUSES,
  inStatuses,
  isJoinable,
  joinableWhere,
  type JoinFacts,
} from "@/lib/events/lifecycle";
import { ENDING_SOON_MS } from "@/lib/campaigns/limits";

export const HOME_FILTERS = ["all", "active", "funded", "ending"] as const;
export type HomeFilter = (typeof HOME_FILTERS)[number];

/** Home sorts (issue 34): newest first (SPEC), deadline soonest first, closest to its goal first. */
export const HOME_SORTS = ["newest", "ending", "nearly"] as const;
export type HomeSort = (typeof HOME_SORTS)[number];
export const HOME_SORT_LABELS: Record<HomeSort, string> = {
  newest: "Newest",
  ending: "Ending soon",
  nearly: "Nearly there",
};

/** The longest search the box takes (websearch syntax: words, "phrases", -not, or). */
export const SEARCH_MAX = 100;

/**
 * Home query string (?filter=ending&page=2&sort=nearly&q=jazz); anything unknown falls back to the
 * defaults. Only filter and page have cached copies (proxy.ts): a sort or a search is rendered per request.
 */
export const homeQuerySchema = z.object({
  filter: z.enum(HOME_FILTERS).catch("all"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
  sort: z.enum(HOME_SORTS).catch("newest"),
  q: z
    .string()
    .transform((s) => s.trim().slice(0, SEARCH_MAX))
    .catch(""),
});
export type HomeQuery = z.infer<typeof homeQuerySchema>;

/** The home URL for a query, defaults left out ("/" for the plain list). */
export function homeHref(q: Partial<HomeQuery>): string {
  const params = new URLSearchParams();
  if (q.q) params.set("q", q.q);
  if (q.filter && q.filter !== "all") params.set("filter", q.filter);
  if (q.sort && q.sort !== "newest") params.set("sort", q.sort);
  if (q.page && q.page > 1) params.set("page", String(q.page));
  const s = params.toString();
  return s ? `/?${s}` : "/";
}

/**
 * Home filters (SPEC §2, §9) as one pure predicate and one database condition built from the same
 * rule: active = joinable (lib/events/lifecycle isJoinable: a newcomer can commit or join the
 * waitlist); funded = threshold reached (funded, charging or charged); ending = joinable with the
 * deadline within 7 days (issue 16: a cancelled event is not "ending soon"; issue 34: only events
 * one can still join). "All" lists every event with its status.
 */

export function matchesHomeFilter(c: JoinFacts, filter: HomeFilter, now: Date): boolean {
  const t = c.deadline.getTime();
  switch (filter) {
    case "active":
      return isJoinable(c, now);
    case "funded":
      return inStatuses(CONFIRMED_STATUSES, c.status);
    case "ending":
      return isJoinable(c, now) && t <= now.getTime() + ENDING_SOON_MS;
    default:
      return true;
  }
}

/** The same rule as a Prisma `where` fragment. */
export function homeFilterWhere(filter: HomeFilter, now: Date) {
  switch (filter) {
    case "active":
      return joinableWhere(now);
    case "funded":
      return { status: { in: [...CONFIRMED_STATUSES] } };
    case "ending":
      return { AND: [joinableWhere(now), { deadline: { lte: new Date(now.getTime() + ENDING_SOON_MS) } }] };
    default:
      return {};
  }
}

export const HOME_FILTER_LABELS: Record<HomeFilter, string> = {
  all: "All",
  active: "Active",
  funded: "Confirmed",
  ending: "Ending soon",
};
