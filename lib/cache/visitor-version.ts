import pg from "pg";
import { COMMENTS_SHOWN, EVENT_COMMITMENTS_LIMIT } from "@/lib/campaigns/page-sizes";
import type { SessionClaims } from "@/lib/access/session-cookie";
import { canSeeEvent, isApproved, memberCopyAudience } from "@/lib/access/rules";
import { isCampaignId } from "@/lib/ids";
import { livePledgeWhere, memberPledgeWhere, standingPledgeWhere } from "@/lib/events/lifecycle";
import { standingSql } from "@/lib/events/standing";

/**
 * Visitors' pages are cached by version (issue 8: fast pages, and "an approval, a commit or a
 * comment is visible to the next request"). proxy.ts asks here for the current version of what a
 * signed-out request will show and rewrites it to /v/...{version}: the version is part of the
 * cache key, so a change in the database is a new key — no invalidation to miss, and every app
 * instance agrees because the version comes from Postgres.
 *
 * A version is the relevant campaigns' "updatedAt" (moved by triggers on every change a page
 * shows: migration visitor_cache_versions) plus a 5-minute time bucket, so time-dependent text
 * (days left, pace, "ending soon") is never older than five minutes, and for an event page whether
 * its deadline has passed (identities "onStart", commit closed) — that flips the version at once.
 *
 * A plain `pg` pool (not Prisma) keeps the proxy bundle small; one indexed lookup per request, as a
 * named (prepared) statement so Postgres plans it once per connection, not on every request.
 */
const BUCKET_MS = 5 * 60_000;

/**
 * The statement's name, unless DATABASE_PREPARED_STATEMENTS=false: PgBouncer in transaction mode before
 * 1.21 cannot carry a named statement from one transaction to the next (README, "Several instances").
 */
const named = (name: string) => (process.env.DATABASE_PREPARED_STATEMENTS === "false" ? {} : { name });
const g = globalThis as unknown as { __pnVersionPool?: pg.Pool; __pnVersionUrl?: string };

function pool(): pg.Pool | null {
  const url = process.env.DATABASE_URL;
  if (!url) return null;
  if (!g.__pnVersionPool || g.__pnVersionUrl !== url) {
    g.__pnVersionPool = new pg.Pool({
      connectionString: url,
      max: 4,
      connectionTimeoutMillis: 2_000,
      idleTimeoutMillis: 30_000,
    });
    g.__pnVersionPool.on("error", () => {}); // a dropped idle connection is replaced on the next query
    g.__pnVersionUrl = url;
  }
  return g.__pnVersionPool;
}

const bucket = (now: number) => Math.floor(now / BUCKET_MS).toString(36);

const listVersion = (v: Date | null, now: number) =>
  `${v ? new Date(v).getTime().toString(36) : "0"}-${bucket(now)}`;

/**
 * An event page's version: its row's last change, the time bucket, whether its deadline has passed,
 * and whether it has started ("onStart" identities are revealed then: lib/events/lifecycle revealAt).
 */
const eventVersion = (row: { updatedAt: Date; deadline: Date; startsAt: Date | null }, now: number) =>
  `${new Date(row.updatedAt).getTime().toString(36)}-${bucket(now)}-${now >= new Date(row.deadline).getTime() ? "e" : "o"}${row.startsAt && now >= new Date(row.startsAt).getTime() ? "s" : ""}`;

/** Version of the home list, or null when it cannot be determined (then the page renders per request). */
export async function homeVersion(now = Date.now()): Promise<string | null> {
  const p = pool();
  if (!p) return null;
  const { rows } = await p.query<{ v: Date | null }>({
    ...named("pn_home_version"),
    text: `SELECT max("updatedAt") AS v FROM "Campaign"`,
  });
  return listVersion(rows[0]?.v ?? null, now);
}

/** The prefix of a member home version: the cached home as every signed-in non-admin sees it. */
export const MEMBER_HOME = "member."; // never the start of a visitor version (base-36 digits and "-")

/**
 * Home for a signed-in user: the same list as a visitor's plus the signed-in hero (no Sign In
 * button), identical for every user who is not an admin — so it is cached once for all of them,
 * keyed like the visitors' copy and marked with MEMBER_HOME. One query answers both the version
 * and whether this user is an existing non-admin; null (admin, unknown user, no database) means
 * the per-request page, which shows admins their moderation buttons.
 */
export async function memberHomeVersion(session: SessionClaims, now = Date.now()): Promise<string | null> {
  const p = pool();
  if (!p || !/^[A-Za-z0-9_-]{1,64}$/.test(session.userId)) return null;
  const { rows } = await p.query<{ v: Date | null; admin: boolean | null }>({
    ...named("pn_member_home_version"),
    text: `SELECT (SELECT max("updatedAt") FROM "Campaign") AS v, (SELECT "isAdmin" FROM "User" WHERE id = $1 AND "sessionVersion" = $2) AS admin`,
    values: [session.userId, session.version],
  });
  const row = rows[0];
  if (!row || row.admin !== false) return null;
  return `${MEMBER_HOME}${listVersion(row.v, now)}`;
}

/**
 * Version of one event page's visitors' copy; null when the campaign does not exist or is not
 * approved (proxy.ts then asks eventPageGate, which answers 404 to whoever may not see it).
 */
export async function campaignVersion(id: string, now = Date.now()): Promise<string | null> {
  const p = pool();
  if (!p || !isCampaignId(id)) return null;
  const { rows } = await p.query<{
    updatedAt: Date;
    deadline: Date;
    startsAt: Date | null;
    approvalStatus: string;
  }>({
    ...named("pn_campaign_version_3"),
    text: `SELECT "updatedAt", deadline, "startsAt", "approvalStatus" FROM "Campaign" WHERE id = $1`,
    values: [id],
  });
  const row = rows[0];
  // a pending or rejected event has no visitors' copy: the per-request route (after eventPageGate) answers
  if (!row || !isApproved(row)) return null;
  return eventVersion(row, now);
}

/**
 * The audiences of an event page's cached copies, as the version's suffix (visitors' copies have
 * none): signed-in people who are neither the organizer nor an admin and have nothing of their own
 * on the page's first lists see exactly the same page — one copy for those who committed (they see
 * "You're Committed" and the organizer's email), one for those who did not. The organizer gets a
 * copy made for them alone (issue 35): its suffix names them (`~o<their row's stamp>.<user id>`), so
 * it is a key no one else's request computes. Nothing in a copy is more than its audience may see;
 * proxy.ts refuses /v/ paths from outside, so a copy is only ever served to the audience it was made for.
 */
export const MEMBER_EVENT: Record<"member" | "committed" | "organizer", string> = {
  member: "~m",
  committed: "~c",
  organizer: "~o",
};

/** The organizer a copy's version was made for (its user id), or null when it is not an organizer's copy. */
export function organizerOfVersion(version: string): string | null {
  const m = /~o[0-9a-z]+\.([A-Za-z0-9_-]{1,64})$/.exec(version);
  return m ? m[1] : null;
}

/**
 * Version of an event page for a signed-in user, or null when their page must render per request
 * (admin, unknown user or event, a session signed out since, or one of their pledges or comments
 * among the newest the page lists — there they see themselves, not "Anonymous"). The organizer's
 * copy also moves with their own row (their name, their email's confirmation): the page shows them
 * as they are. One query.
 */
export async function memberCampaignVersion(
  id: string,
  session: SessionClaims,
  now = Date.now(),
): Promise<string | null> {
  const p = pool();
  if (!p || !isCampaignId(id) || !/^[A-Za-z0-9_-]{1,64}$/.test(session.userId)) return null;
  const { rows } = await p.query<{
    updatedAt: Date;
    deadline: Date;
    startsAt: Date | null;
    creatorId: string;
    approvalStatus: string;
    admin: boolean;
    userUpdatedAt: Date;
    committed: boolean;
    listed: boolean;
    waiting: boolean;
    conditional: boolean;
  }>({
    ...named("pn_member_campaign_version_8"),
    text: `SELECT c."updatedAt", c.deadline, c."startsAt", c."creatorId", c."approvalStatus", u."isAdmin" AS admin, u."updatedAt" AS "userUpdatedAt",
            EXISTS (SELECT 1 FROM "Pledge" WHERE "campaignId" = c.id AND "userId" = u.id AND ${livePledgeWhere()}) AS committed,
            EXISTS (SELECT 1 FROM "Pledge" WHERE "campaignId" = c.id AND "userId" = u.id AND ${standingPledgeWhere()} AND "waitlistedAt" IS NOT NULL) AS waiting,
            EXISTS (SELECT 1 FROM "Pledge" WHERE "campaignId" = c.id AND "userId" = u.id AND ${standingSql(["conditional"])}) AS conditional,
            EXISTS (SELECT 1 FROM (SELECT "userId" FROM "Pledge" WHERE "campaignId" = c.id AND ${memberPledgeWhere()} ORDER BY "createdAt" DESC, id DESC LIMIT $3) f WHERE f."userId" = u.id)
              OR EXISTS (SELECT 1 FROM (SELECT "authorId" FROM "Comment" WHERE "campaignId" = c.id ORDER BY "createdAt" DESC, id DESC LIMIT $4) f WHERE f."authorId" = u.id) AS listed
     FROM "Campaign" c, "User" u WHERE c.id = $1 AND u.id = $2 AND u."sessionVersion" = $5`,
    values: [id, session.userId, EVENT_COMMITMENTS_LIMIT, COMMENTS_SHOWN, session.version],
  });
  const row = rows[0];
  // someone waiting on the waitlist sees their own place in line: their page is theirs alone
  // so does someone whose place waits for their condition (issue 34: "Counts when 8 are in", not "You're in")
  // a pending or rejected event is its organizer's and admins' alone: never a copy (its page may
  // show the organizer's payout setup, which no event version follows)
  if (!row || row.waiting || row.conditional || !isApproved(row)) return null;
  // The audience is the access rule's (lib/access/rules.ts), not restated here: the query only reads the facts.
  const audience = memberCopyAudience({
    actor: { id: session.userId, isAdmin: row.admin },
    creatorId: row.creatorId,
    committed: row.committed,
    listed: row.listed,
  });
  if (!audience) return null;
  if (audience === "organizer")
    return `${eventVersion(row, now)}${MEMBER_EVENT.organizer}${new Date(row.userUpdatedAt).getTime().toString(36)}.${session.userId}`;
  return `${eventVersion(row, now)}${MEMBER_EVENT[audience]}`;
}

/**
 * Whether an event page may be rendered for this request (issue 31: an unknown event answered 200
 * — the route's loading state streams before the page can say "not found"). Asked by proxy.ts
 * before any per-request event page streams: "hidden" when the event does not exist or the viewer
 * may not see it (lib/access/rules canSeeEvent: pending and rejected events are their organizer's
 * and admins' only), so the proxy answers 404 with SPEC's "Campaign not found". "unknown" (no
 * database, a malformed session) leaves the decision to the page. One indexed query.
 */
export async function eventPageGate(
  id: string,
  session: SessionClaims | null,
): Promise<"visible" | "hidden" | "unknown"> {
  const p = pool();
  if (!p) return "unknown";
  if (!isCampaignId(id)) return "hidden";
  const userId = session && /^[A-Za-z0-9_-]{1,64}$/.test(session.userId) ? session.userId : null;
  const { rows } = await p.query<{ creatorId: string; approvalStatus: string; admin: boolean | null }>({
    ...named("pn_event_page_gate"),
    text: `SELECT c."creatorId", c."approvalStatus",
            (SELECT "isAdmin" FROM "User" WHERE id = $2 AND "sessionVersion" = $3) AS admin
     FROM "Campaign" c WHERE c.id = $1`,
    values: [id, userId, session?.version ?? 0],
  });
  const row = rows[0];
  if (!row) return "hidden";
  // a session whose user is gone or signed out since is a visitor
  const actor = userId && row.admin !== null ? { id: userId, isAdmin: row.admin } : null;
  return canSeeEvent(actor, row) ? "visible" : "hidden";
}
