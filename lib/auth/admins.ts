import "server-only";
import { normalizeEmail } from "@/lib/auth/schema";
import { db, type Prisma } from "@/lib/db";
import { adminEmails } from "@/lib/env";

/**
 * Who may become admin through ADMIN_EMAILS (DESIGN §1 "admins", issue 31 item 3): an account whose
 * address is verified AND every way into it was chosen by the inbox's owner — no password at all
 * (Google), or a password set through an emailed link (the confirmation page asks for it, or a reset
 * link). Confirming an address proves who reads the inbox, not who chose a password typed at
 * sign-up: that one may be a squatter's, so it never qualifies.
 */
export const ADMIN_EMAILS_ELIGIBLE = {
  emailVerified: { not: null },
  OR: [{ passwordHash: null }, { passwordSetViaEmailAt: { not: null } }],
} satisfies Prisma.UserWhereInput;

/**
 * Grants admin to an ADMIN_EMAILS address once the account is eligible (above). A bare sign-up never
 * grants it: whoever registered the address first would otherwise be admin. Never revokes
 * (`npm run user:admin -- --revoke` does), and the CLI grants without this rule (the demo admin).
 */
export async function applyAdminEmails(user: { id: string; email: string }): Promise<void> {
  if (!adminEmails().has(normalizeEmail(user.email))) return;
  await db.user.updateMany({
    where: { id: user.id, isAdmin: false, ...ADMIN_EMAILS_ELIGIBLE },
    data: { isAdmin: true },
  });
}
