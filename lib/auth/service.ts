import "server-only";
import { verifyPassword } from "@/lib/auth/password";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";

export const normalizeEmail = (email: string) => email.trim().toLowerCase();

/** Email/password sign-in. Throws AppError with SPEC §8 texts. */
export async function verifyPasswordSignIn(emailInput: string, password: string) {
  const email = normalizeEmail(emailInput);
  const user = await db.user.findUnique({ where: { email }, select: { id: true, email: true, name: true, passwordHash: true } });
  if (!user || !user.passwordHash) throw new AppError("UNAUTHENTICATED", "No account found with this email");
  if (!(await verifyPassword(user.passwordHash, password))) throw new AppError("UNAUTHENTICATED", "Incorrect password");
  return { id: user.id, email: user.email, name: user.name };
}
