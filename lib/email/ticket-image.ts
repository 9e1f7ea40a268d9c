import QRCode from "qrcode";
import { unsealTicketToken } from "@/lib/security/ticket-token";

/**
 * A door ticket's QR code as a PNG (issue 36): for the holder's pages (a data: URL rendered per
 * request) and the confirmation email's inline image (rendered by the sender, so the outbox never
 * holds the raw token: lib/email/service.ts openSealedAttachments). The door reads the token as
 * text; error correction M keeps it readable on a cracked phone screen or a crumpled print.
 */
const OPTIONS = { errorCorrectionLevel: "M", margin: 2, scale: 8 } as const;

export const ticketQrPng = (token: string): Promise<Buffer> =>
  QRCode.toBuffer(token, { ...OPTIONS, type: "png" });

export const ticketQrDataUrl = async (token: string) =>
  `data:image/png;base64,${(await ticketQrPng(token)).toString("base64")}`;

type StoredAttachment = {
  filename: string;
  contentType: string;
  content: string;
  cid?: string;
  sealed?: string;
};
type SentAttachment = { filename: string; contentType: string; content: string | Buffer; cid?: string };

/**
 * The outbox row's attachments as sent: a sealed ticket becomes its QR code's PNG. One whose seal no
 * longer opens (NEXTAUTH_SECRET changed since it was queued) is left out: the email still carries the
 * short code as text, and My commitments shows the ticket.
 */
export async function openSealedAttachments(list: StoredAttachment[]): Promise<SentAttachment[]> {
  const out: SentAttachment[] = [];
  for (const { sealed, ...a } of list) {
    if (sealed !== "ticket-qr") {
      out.push(a);
      continue;
    }
    const token = unsealTicketToken(a.content);
    if (token) out.push({ ...a, content: await ticketQrPng(token) });
  }
  return out;
}

/** issue 36: the door ticket an email carries (its token sealed: the sender draws the QR). */
export type EmailTicket = { code: string; tokenSealed: string };
export const TICKET_CID = "ticket-qr";
/** The outbox attachment of a ticket's QR code, shown inline as `cid:ticket-qr`. */
export const ticketAttachment = (t: EmailTicket) => ({
  filename: "ticket.png",
  contentType: "image/png",
  content: t.tokenSealed,
  cid: TICKET_CID,
  sealed: "ticket-qr" as const,
});
