import { createCipheriv, createDecipheriv, createHash, randomBytes, randomInt } from "node:crypto";

/**
 * A door ticket's secrets (issue 36, docs/decisions/tickets.md), pure crypto without the database:
 *  - the token: 32 random bytes, base64url. It is what the QR code holds. The door finds the ticket
 *    by its SHA-256 hash alone, so a scan never depends on a server secret (a rotation leaves every
 *    ticket valid) and the token carries no id.
 *  - the sealed token: the same token under AES-256-GCM with a key derived from NEXTAUTH_SECRET, so
 *    its holder can be shown it again and a copy of the database alone reveals no token.
 *  - the short code: 8 characters of an alphabet without 0/O, 1/I/L, for typing at the door.
 */
export const CODE_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ";
export const CODE_LENGTH = 8;
const CODE_SHAPE = /^[2-9A-HJKMNP-Z]{8}$/;
const TOKEN_SHAPE = /^[A-Za-z0-9_-]{43}$/;
const SEAL_VERSION = "v1";

export const newTicketToken = () => randomBytes(32).toString("base64url");

export const hashTicketToken = (token: string) => createHash("sha256").update(token).digest("base64url");

export const newTicketCode = () =>
  Array.from({ length: CODE_LENGTH }, () => CODE_ALPHABET[randomInt(CODE_ALPHABET.length)]).join("");

/** A code as typed at the door (lower case, spaces or dashes), or null when it cannot be one. */
export function normalizeTicketCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, "");
  return CODE_SHAPE.test(code) ? code : null;
}

/** Whether a scanned text can be a token (before any lookup). */
export const isTicketToken = (s: string) => TOKEN_SHAPE.test(s);

/** The code as shown: two groups of four ("ABCD-EFGH"). */
export const displayTicketCode = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

function sealKey(): Buffer {
  const secret = process.env.NEXTAUTH_SECRET;
  if (!secret) throw new Error("NEXTAUTH_SECRET is not set");
  return createHash("sha256").update(`ticket-seal\u0000${secret}`).digest();
}

/** The token sealed for its holder: "v1.<iv>.<tag>.<ciphertext>", base64url parts. */
export function sealTicketToken(token: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", sealKey(), iv);
  const body = Buffer.concat([cipher.update(token, "utf8"), cipher.final()]);
  return [SEAL_VERSION, iv, cipher.getAuthTag(), body]
    .map((p) => (typeof p === "string" ? p : p.toString("base64url")))
    .join(".");
}

/** The token inside a seal, or null when it cannot be opened (the secret changed, or it was altered). */
export function unsealTicketToken(sealed: string): string | null {
  const [version, iv, tag, body] = sealed.split(".");
  if (version !== SEAL_VERSION || !iv || !tag || !body) return null;
  try {
    const decipher = createDecipheriv("aes-256-gcm", sealKey(), Buffer.from(iv, "base64url"));
    decipher.setAuthTag(Buffer.from(tag, "base64url"));
    const token = Buffer.concat([decipher.update(Buffer.from(body, "base64url")), decipher.final()]).toString(
      "utf8",
    );
    return isTicketToken(token) ? token : null;
  } catch {
    return null;
  }
}
