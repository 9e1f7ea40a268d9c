import "server-only";
import crypto from "node:crypto";
import { z } from "zod";
import { db } from "@/lib/db";
import { appUrl, env } from "@/lib/env";

/**
 * Unsubscribe links for non-transactional mail (reminders, organizer updates and digests). The
 * token is an HMAC of the user id, so a link works without signing in and cannot be forged for
 * another user.
 */
const secret = () => env().NEXTAUTH_SECRET || env().DATABASE_URL;

const sign = (userId: string) =>
  crypto.createHmac("sha256", secret()).update(`unsubscribe:${userId}`).digest("base64url");

export const unsubscribeToken = (userId: string) => `${userId}.${sign(userId)}`;

export const unsubscribeUrl = (userId: string) =>
  `${appUrl()}/unsubscribe?token=${encodeURIComponent(unsubscribeToken(userId))}`;

/**
 * An email's unsubscribe links: the page a person opens from the footer (asks to confirm), and
 * the one-click address of the List-Unsubscribe header, which a mail provider POSTs to (RFC 8058;
 * app/api/unsubscribe/route.ts; a GET there only leads to the page).
 */
export const unsubscribeLinks = (userId: string) => ({
  page: unsubscribeUrl(userId),
  oneClick: `${appUrl()}/api/unsubscribe?token=${encodeURIComponent(unsubscribeToken(userId))}`,
});
export type UnsubscribeLinks = ReturnType<typeof unsubscribeLinks>;

const unsubscribeTokenSchema = z.string().min(3).max(300);

/** The user id of a valid token, else null. */
export function verifyUnsubscribeToken(token: unknown): string | null {
  const parsed = unsubscribeTokenSchema.safeParse(token);
  if (!parsed.success) return null;
  const dot = parsed.data.lastIndexOf(".");
  if (dot <= 0) return null;
  const userId = parsed.data.slice(0, dot);
  const given = Buffer.from(parsed.data.slice(dot + 1));
  const expected = Buffer.from(sign(userId));
  return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? userId : null;
}

/** Sets the user's opt-out; true when the token was valid. */
export async function unsubscribe(token: unknown): Promise<boolean> {
  const userId = verifyUnsubscribeToken(token);
  if (!userId) return false;
  const { count } = await db.user.updateMany({ where: { id: userId }, data: { emailOptOut: true } });
  return count === 1;
}
