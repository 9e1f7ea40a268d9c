import "server-only";
import { cache } from "react";
import { cookies } from "next/headers";
import { sessionUserId } from "@/lib/auth/session-cookie";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";

export type Viewer = { id: string; email: string; name: string | null; isAdmin: boolean };

/**
 * The signed-in user for this request, or null. Admin status is read from the database on every
 * request, so a revoked admin loses access at once, not when the JWT expires.
 */

const visitorRender = cache(() => ({ on: false }));

/**
 * Marks the current render as a visitor page served from the cache (app/v/**, lib/cache): from
 * then on getViewer answers null without reading cookies, so the page stays cacheable.
 */
export function renderAsVisitor() {
  visitorRender().on = true;
}

export const getViewer = cache(async (): Promise<Viewer | null> => {
  if (visitorRender().on) return null;
  const id = await sessionUserId(await cookies());
  if (!id) return null;
  const user = await db.user.findUnique({ where: { id }, select: { id: true, email: true, name: true, isAdmin: true } });
  return user ?? null;
});

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
