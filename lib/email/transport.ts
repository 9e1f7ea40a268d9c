import "server-only";
import nodemailer from "nodemailer";
import { env } from "@/lib/env";

/** What the sender needs from a mail transport (nodemailer's, or a fake in tests). */
export type MailTransport = {
  sendMail(message: {
    from: string;
    to: string;
    subject: string;
    text: string;
    html: string;
    messageId: string;
    headers: Record<string, string>;
    attachments?: Array<{ filename: string; contentType: string; content: string | Buffer; cid?: string }>;
  }): Promise<unknown>;
};

let cached: { url: string; transport: MailTransport } | undefined;

/** nodemailer over SMTP_URL, or null when it is unset (emails are then only stored for /admin/emails). */
export function smtpTransport(): MailTransport | null {
  const url = env().SMTP_URL;
  if (!url) return null;
  if (cached?.url !== url) cached = { url, transport: nodemailer.createTransport(url) };
  return cached.transport;
}

export const smtpConfigured = () => Boolean(env().SMTP_URL);
