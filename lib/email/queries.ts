import "server-only";
import { db } from "@/lib/db";
import { AppError } from "@/lib/errors";
import { smtpConfigured } from "@/lib/email/transport";
import { CONFIRM_EMAIL_KEY, RESET_PASSWORD_KEY, SEAT_INVITE_KEY } from "@/lib/email/schema";

const OUTBOX_PAGE_SIZE = 25;

export const HIDDEN_LINK_TEXT =
  "This email holds a one-time link (an address confirmation, a password reset or a seat claim), which is not shown here.";

/** issue 36: a door ticket's code as an email shows it ("ABCD-EFGH"), and what admins read instead. */
const SHOWN_TICKET_CODE = /\b[2-9A-HJKMNP-Z]{4}-[2-9A-HJKMNP-Z]{4}\b/g;
export const HIDDEN_TICKET_CODE = "(not shown here)";
const carriesTicket = (attachments: unknown) =>
  Array.isArray(attachments) && attachments.some((a) => (a as { sealed?: unknown })?.sealed === "ticket-qr");

export type OutboxEntry = {
  id: string;
  toEmail: string;
  subject: string;
  text: string;
  /** the HTML version as sent, or null when it holds a link not shown here */
  html: string | null;
  status: "pending" | "sent" | "failed";
  attempts: number;
  lastError: string | null;
  createdAt: Date;
  sentAt: Date | null;
  attachmentNames: string[];
};

type OutboxPage = {
  entries: OutboxEntry[];
  total: number;
  page: number;
  pages: number;
  smtp: boolean;
  recipient: string;
};

/** /admin/emails: every stored email, newest first, optionally for one recipient. Admins only. */
export async function listOutboxForAdmin(
  viewer: { id: string; isAdmin: boolean } | null,
  { page = 1, recipient = "" }: { page?: number; recipient?: string } = {},
): Promise<OutboxPage> {
  if (!viewer?.isAdmin) throw new AppError("FORBIDDEN", "Access denied. Admin privileges required.");
  const q = recipient.trim().toLowerCase().slice(0, 254);
  const where = q ? { toEmail: { contains: q } } : {};
  const [rows, total] = await Promise.all([
    db.emailOutbox.findMany({
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      skip: (page - 1) * OUTBOX_PAGE_SIZE,
      take: OUTBOX_PAGE_SIZE,
      select: {
        id: true,
        dedupeKey: true,
        toEmail: true,
        subject: true,
        text: true,
        html: true,
        status: true,
        attempts: true,
        lastError: true,
        createdAt: true,
        sentAt: true,
        attachments: true,
      },
    }),
    db.emailOutbox.count({ where }),
  ]);
  return {
    entries: rows.map(({ attachments, dedupeKey, ...r }) => {
      // DESIGN §1 "emails": confirmation and reset links are never shown here (an admin could
      // confirm any address, or take over any account)
      const hidden = [CONFIRM_EMAIL_KEY, RESET_PASSWORD_KEY, SEAT_INVITE_KEY].some((k) =>
        dedupeKey.startsWith(k),
      );
      // issue 36: nor a door ticket's code (anyone holding it gets in as its holder); its QR image is
      // drawn at send time and never stored (lib/email/ticket-image.ts), only its name is listed
      const ticket = carriesTicket(attachments);
      const shown = (s: string) => (ticket ? s.replace(SHOWN_TICKET_CODE, HIDDEN_TICKET_CODE) : s);
      return {
        ...r,
        text: hidden ? HIDDEN_LINK_TEXT : shown(r.text),
        html: hidden ? null : shown(r.html),
        attachmentNames: Array.isArray(attachments)
          ? attachments.map((a) => String((a as { filename?: unknown })?.filename ?? "attachment"))
          : [],
      };
    }),
    total,
    page,
    pages: Math.max(1, Math.ceil(total / OUTBOX_PAGE_SIZE)),
    smtp: smtpConfigured(),
    recipient: q,
  };
}
