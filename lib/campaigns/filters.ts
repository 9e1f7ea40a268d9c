import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { COLLECTING_STATUSES, CONFIRMED_STATUSES, inStatuses, isCollecting } from "@/lib/events/lifecycle";
import { ENDING_SOON_MS } from "@/lib/campaigns/limits";

export const HOME_FILTERS = ["all", "active", "funded", "ending"] as const;
export type HomeFilter = (typeof HOME_FILTERS)[number];

/** Home query string (?filter=ending&page=2); anything unknown falls back to the defaults. */
export const homeQuerySchema = z.object({
  filter: z.enum(HOME_FILTERS).catch("all"),
  page: z.coerce.number().int().min(1).max(100_000).catch(1),
});

/**
 * Home filters (SPEC §2, §9) as one pure predicate and one database condition built from the same
 * rule: active = collecting (status pending) before the deadline; funded = threshold reached
 * (funded, charging or charged); ending = still collecting with the deadline within 7 days (issue
 * 16: a cancelled or confirmed event is not "ending soon"). "All" lists every event with its status.
 */

export function matchesHomeFilter(
  c: { status: string; deadline: Date },
  filter: HomeFilter,
  now: Date,
): boolean {
  const t = c.deadline.getTime();
  switch (filter) {
    case "active":
      return isCollecting(c, now);
    case "funded":
      return inStatuses(CONFIRMED_STATUSES, c.status);
    case "ending":
      return isCollecting(c, now) && t <= now.getTime() + ENDING_SOON_MS;
    default:
      return true;
  }
}

/** The same rule as a Prisma `where` fragment. */
export function homeFilterWhere(filter: HomeFilter, now: Date) {
  switch (filter) {
    case "active":
      return { status: { in: [...COLLECTING_STATUSES] }, deadline: { gt: now } };
    case "funded":
      return { status: { in: [...CONFIRMED_STATUSES] } };
    case "ending":
      return {
        status: { in: [...COLLECTING_STATUSES] },
        deadline: { gt: now, lte: new Date(now.getTime() + ENDING_SOON_MS) },
      };
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
