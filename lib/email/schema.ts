import { z } from "zod";
import { pageNumberSchema } from "@/lib/ids";

const SUBJECT_MAX = 300;
const DEDUPE_KEY_MAX = 300;

const emailAttachmentSchema = z.object({
  filename: z.string().min(1).max(200),
  contentType: z.string().min(1).max(200),
  content: z.string().max(1_000_000),
  /** an inline image, referenced from the HTML as `cid:<cid>` */
  cid: z
    .string()
    .regex(/^[a-z0-9.-]{1,64}$/)
    .optional(),
  /**
   * issue 36: `content` is a door ticket's sealed token, and the sender renders its QR code as the
   * PNG (lib/email/ticket-image.ts), so the outbox never holds the raw token.
   */
  sealed: z.literal("ticket-qr").optional(),
});

/** One email for the outbox. `dedupeKey` names the cause and the recipient, e.g. "commit:<pledgeId>:<userId>". */
export const queuedEmailSchema = z.object({
  dedupeKey: z.string().trim().min(1).max(DEDUPE_KEY_MAX),
  to: z.string().trim().toLowerCase().pipe(z.email()),
  subject: z.string().trim().min(1).max(SUBJECT_MAX),
  text: z.string().min(1),
  html: z.string().min(1),
  attachments: z.array(emailAttachmentSchema).max(5).optional(),
  /** Extra headers: only the list headers of RFC 2369 / RFC 8058 (one-click unsubscribe). */
  headers: z
    .object({
      "List-Unsubscribe": z.string().regex(/^<https?:\/\/[^<>\s]+>$/),
      "List-Unsubscribe-Post": z.literal("List-Unsubscribe=One-Click"),
    })
    .optional(),
});
export type QueuedEmail = z.input<typeof queuedEmailSchema>;

/**
 * Dedupe-key prefixes of the emails that hold a one-time link (lib/auth: the address confirmation,
 * the password reset): /admin/emails never shows their text (lib/email/queries.ts).
 */
export const CONFIRM_EMAIL_KEY = "confirm-email:";
export const RESET_PASSWORD_KEY = "reset-password:";
/** issue 37: a named friend's claim link (lib/pledges/friends.ts) */
export const SEAT_INVITE_KEY = "seat-invite:";

/** Admin list paging (/admin/emails?page=N). */
export const outboxPageSchema = pageNumberSchema;
