import "server-only";
import type { Adapter, AdapterAccount, AdapterUser } from "next-auth/adapters";
import { NAME_MAX, normalizeEmail } from "@/lib/auth/schema";
import { db } from "@/lib/db";

/**
 * NextAuth adapter over our Prisma client, for OAuth (Google) users and their linked accounts.
 * Sessions are JWTs, so only the user and account methods are needed. Emails are stored trimmed
 * and lower-cased (the same rule as password accounts) and names cut to NAME_MAX characters.
 */
/**
 * Which email an identity-provider account was verified for in this request (callbacks.signIn records
 * it after checking the provider's `email_verified`), or null. linkAccount links an account only to
 * the user with exactly that email (issue 31): NextAuth links a new OAuth account to whoever holds a
 * session cookie, whatever the provider's email is, so without this someone signed in to an account
 * (a squatter's, or one whose session already ended) could attach their own Google account to it.
 */
export type VerifiedEmailOf = (provider: string, providerAccountId: string) => string | null;

export const LINK_REFUSED = "This Google account uses another email address.";

const userSelect = { id: true, email: true, name: true, image: true, emailVerified: true } as const;

const cleanName = (name: string | null | undefined) => {
  const trimmed = name?.trim();
  return trimmed ? Array.from(trimmed).slice(0, NAME_MAX).join("") : null;
};

export function pactNexusAdapter(
  { verifiedEmailOf }: { verifiedEmailOf: VerifiedEmailOf } = { verifiedEmailOf: () => null },
): Adapter {
  return {
    async createUser(user: Omit<AdapterUser, "id">): Promise<AdapterUser> {
      return db.user.create({
        data: {
          email: normalizeEmail(user.email),
          name: cleanName(user.name),
          image: user.image ?? null,
          emailVerified: user.emailVerified ?? null,
        },
        select: userSelect,
      });
    },

    async getUser(id) {
      return db.user.findUnique({ where: { id }, select: userSelect });
    },

    async getUserByEmail(email) {
      return db.user.findUnique({ where: { email: normalizeEmail(email) }, select: userSelect });
    },

    async getUserByAccount({ provider, providerAccountId }) {
      const account = await db.account.findUnique({
        where: { provider_providerAccountId: { provider, providerAccountId } },
        select: { user: { select: userSelect } },
      });
      return account?.user ?? null;
    },

    async updateUser(user) {
      return db.user.update({
        where: { id: user.id },
        data: {
          ...(user.name !== undefined && { name: cleanName(user.name) }),
          ...(user.image !== undefined && { image: user.image }),
          ...(user.emailVerified !== undefined && { emailVerified: user.emailVerified }),
        },
        select: userSelect,
      });
    },

    async deleteUser(userId) {
      await db.user.delete({ where: { id: userId } });
    },

    async linkAccount(account: AdapterAccount) {
      const email = verifiedEmailOf(account.provider, account.providerAccountId);
      const user = await db.user.findUnique({ where: { id: account.userId }, select: { email: true } });
      // NextAuth then answers error=Callback and issues no session; callbacks.signIn refuses the usual case earlier, with its own message
      if (!email || !user || user.email !== normalizeEmail(email)) throw new Error(LINK_REFUSED);
      await db.account.create({
        data: {
          userId: account.userId,
          type: account.type,
          provider: account.provider,
          providerAccountId: account.providerAccountId,
          refresh_token: account.refresh_token ?? null,
          access_token: account.access_token ?? null,
          expires_at: account.expires_at ?? null,
          token_type: account.token_type ?? null,
          scope: account.scope ?? null,
          id_token: account.id_token ?? null,
          session_state: account.session_state ?? null,
        },
      });
    },

    async unlinkAccount({
      provider,
      providerAccountId,
    }: Pick<AdapterAccount, "provider" | "providerAccountId">) {
      await db.account.delete({ where: { provider_providerAccountId: { provider, providerAccountId } } });
    },
  };
}
