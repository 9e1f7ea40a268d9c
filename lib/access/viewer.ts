import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { sessionClaims } from "@/lib/access/session-cookie";
import { db, queryOn } from "@/lib/db";
import { AppError } from "@/lib/errors";

export type Viewer = { id: string; email: string; name: string | null; isAdmin: boolean };

/**
 * The signed-in user for this request, or null. Admin status is read from the database on every
 * request, so a revoked admin loses access at once, not when the JWT expires.
 */

const visitorRender = cache(
  (): { on: boolean; member: { committed: boolean } | null; organizer: string | null } => ({
    on: false,
    member: null,
    organizer: null,
  }),
);

/**
 * The stand-in viewer of a cached member copy of an event page (lib/cache/visitor-version.ts
 * MEMBER_EVENT): signed in, not an admin, not the organizer, none of the page's rows theirs. Its id
 * is no user's (ids are cuids), so it owns nothing, and its email is unknown to the page.
 */
const MEMBER_VIEWER: Viewer = Object.freeze({ id: "~member", email: "", name: null, isAdmin: false });

/**
 * Marks the current render as a cached copy for signed-in members (app/v/campaign with a member
 * version): getViewer answers MEMBER_VIEWER without reading cookies, and whether that viewer has
 * committed is the copy's audience (memberHasCommitted).
 */
export function renderAsMember(committed: boolean) {
  const state = visitorRender();
  state.on = true;
  state.member = { committed };
}

/** For MEMBER_VIEWER: whether the copy being rendered is the committed members' one; null for real users. */
export function memberHasCommitted(userId: string): boolean | null {
  return userId === MEMBER_VIEWER.id ? Boolean(visitorRender().member?.committed) : null;
}

/**
 * Marks the current render as the cached copy made for one event's organizer (issue 35; the audience
 * is lib/access/rules memberCopyAudience's, decided by proxy.ts, and the user id comes from the copy's
 * signed path): getViewer answers that user, read by id without cookies, so the page stays cacheable.
 */
export function renderAsOrganizer(userId: string) {
  const state = visitorRender();
  state.on = true;
  state.organizer = userId;
}

/**
 * Marks the current render as a visitor page served from the cache (app/v/**, lib/cache): from
 * then on getViewer answers null without reading cookies, so the page stays cacheable.
 */
export function renderAsVisitor() {
  visitorRender().on = true;
}

export const getViewer = cache(async (): Promise<Viewer | null> => {
  const render = visitorRender();
  if (render.organizer) return organizerViewer(render.organizer);
  if (render.on) return render.member ? MEMBER_VIEWER : null;
  const claims = await sessionClaims(await cookies());
  if (!claims) return null;
  // A cookie from before the user signed out (on any device) carries an older session version.
  // A raw statement (issue 35, commits/s): every signed-in request runs this, and Prisma's query
  // compiler cost about 0.9 ms of CPU more per call than the raw read of the same row.
  const rows = await queryOn<Viewer>(db)`
    SELECT id, email, name, "isAdmin" FROM "User"
    WHERE id = ${claims.userId} AND "sessionVersion" = ${claims.version}`;
  return rows[0] ?? null;
});

/** The organizer a cached copy is rendered for: never an admin (admins' pages render per request). */
async function organizerViewer(userId: string): Promise<Viewer | null> {
  const user = await db.user.findUnique({
    where: { id: userId },
    select: { id: true, email: true, name: true, isAdmin: true },
  });
  return user && !user.isAdmin ? user : null;
}

export async function requireUser(): Promise<Viewer> {
  const viewer = await getViewer();
  if (!viewer) throw new AppError("UNAUTHENTICATED", "Please sign in first.");
  return viewer;
}

export async function requireAdmin(): Promise<Viewer> {
  const viewer = await requireUser();
  if (!viewer.isAdmin) throw new AppError("FORBIDDEN", "Access denied. Admin privileges required.");
  return viewer;
}
