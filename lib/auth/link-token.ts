import crypto from "node:crypto";
import { z } from "zod";

/**
 * The secret of an emailed one-time link (email confirmation, password reset): 32 random bytes,
 * of which only the SHA-256 is stored (VerificationToken), so a database reader cannot use a link.
 */
export const newLinkToken = () => crypto.randomBytes(32).toString("base64url");

export const hashLinkToken = (token: string) => crypto.createHash("sha256").update(token).digest("hex");

/** A token as it arrives from a link or a form (anything else is simply not valid). */
export const linkTokenSchema = z
  .string()
  .trim()
  .min(20)
  .max(200)
  .regex(/^[A-Za-z0-9_-]+$/);
