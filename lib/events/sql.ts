import { Prisma } from "@/lib/db";
import {
  COLLECTING_STATUSES,
  CONFIRMED_STATUSES,
  livePledgeWhere,
  memberPledgeWhere,
  sqlStatusList,
  standingPledgeWhere,
  type StatusSet,
} from "@/lib/events/lifecycle";

// The campaign core's rules (lifecycle.ts) as fragments of a tagged SQL statement. They live beside
// the rules, not in lib/db.ts: the database client imports no domain (issue 32).

/** A status set of the campaign core as an SQL `IN` list: `c.status IN (${statusIn(CONFIRMED_STATUSES)})`. */
export const statusIn = (set: StatusSet) => Prisma.raw(sqlStatusList(set));

/** The campaign core's live-pledge rule (not withdrawn) in a tagged statement: `AND ${livePledgeSql("p")}`. */
export const livePledgeSql = (alias?: string) => Prisma.raw(livePledgeWhere(alias));
/** A member (issue 21: holds a place and counts toward the goal): `AND ${memberPledgeSql("p")}`. */
export const memberPledgeSql = (alias?: string) => Prisma.raw(memberPledgeWhere(alias));
/** In or waiting (not withdrawn): `AND ${standingPledgeSql("p")}`. */
export const standingPledgeSql = (alias?: string) => Prisma.raw(standingPledgeWhere(alias));

/**
 * Joinable (lib/events/lifecycle isJoinable, issue 34) for the campaign under `alias` in a tagged
 * statement: collecting before the deadline, or confirmed, keeping accepting and before it.
 */
export const joinableSql = (alias: string, now: Date) => {
  const a = Prisma.raw(alias);
  return Prisma.sql`(${a}."deadline" > ${now} AND (${a}."status" IN (${statusIn(COLLECTING_STATUSES)}) OR (${a}."status" IN (${statusIn(CONFIRMED_STATUSES)}) AND (${a}."acceptAfterThreshold" OR ${a}."capacity" IS NOT NULL))))`;
};
