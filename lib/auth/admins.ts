import "server-only";
import { normalizeEmail } from "@/lib/auth/schema";
import { db } from "@/lib/db";
import { adminEmails } from "@/lib/env";

/**
 * ADMIN_EMAILS grants admin to its addresses once they are VERIFIED (DESIGN §1 "admins"): a
 * confirmed email link (lib/auth/email-confirmation.ts) or a Google-verified email. A bare sign-up
 * never grants it: whoever registered the address first would otherwise be admin. Never revokes
 * (`npm run user:admin -- --revoke` does).
 */
export async function applyAdminEmails(user: { id: string; email: string }): Promise<void> {
  if (!adminEmails().has(normalizeEmail(user.email))) return;
  await db.user.updateMany({
    where: { id: user.id, isAdmin: false, emailVerified: { not: null } },
    data: { isAdmin: true },
  });
}
