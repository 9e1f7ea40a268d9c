import "server-only";
import { db, type Prisma } from "@/lib/db";
import { env } from "@/lib/env";
import { enqueue } from "@/lib/jobs/boss";
import { queuedEmailSchema, type QueuedEmail } from "@/lib/email/schema";
import { smtpTransport, type MailTransport } from "@/lib/email/transport";
import { openSealedAttachments } from "@/lib/email/ticket-image";

export const EMAIL_SEND_JOB = "email-send";
/** After this many failed SMTP attempts a row is marked failed and left for an admin to see. */
export const MAX_SEND_ATTEMPTS = 8;

type Tx = Prisma.TransactionClient;

/**
 * Writes one email to the outbox inside the caller's transaction (transactional outbox): it exists
 * if and only if the change that causes it commits. `dedupeKey` (unique) names the cause and the
 * recipient, so running the cause again — a retried job, a second instance — never adds a second
 * email. Returns true when this call queued it, false when that key was already queued.
 * After the transaction commits, call kickEmailSender() to send without waiting for the sweeper.
 */
export async function queueEmail(tx: Tx, email: QueuedEmail): Promise<boolean> {
  return (await queueEmails(tx, [email])) === 1;
}

/**
 * An email's outbox columns, validated exactly as queueEmails does: for a cause that writes its
 * row in its own SQL statement, in the same transaction (a commit: lib/pledges/service.ts).
 */
export function outboxColumns(email: QueuedEmail) {
  const e = queuedEmailSchema.parse(email);
  return {
    dedupeKey: e.dedupeKey,
    toEmail: e.to,
    subject: e.subject,
    text: e.text,
    html: e.html,
    attachments: e.attachments ?? null,
    headers: e.headers ?? null,
  };
}

/** queueEmail for many recipients; returns how many were newly queued. */
export async function queueEmails(tx: Tx, emails: QueuedEmail[]): Promise<number> {
  if (emails.length === 0) return 0;
  const { count } = await tx.emailOutbox.createMany({
    data: emails
      .map(outboxColumns)
      .map((e) => ({ ...e, attachments: e.attachments ?? undefined, headers: e.headers ?? undefined })),
    skipDuplicates: true,
  });
  return count;
}

/** What a kick queues: the sender only (the per-minute run also derives missing emails, lib/email/jobs.ts). */
export const EMAIL_KICK_DATA = { kick: true } as const;

/**
 * Kicks are coalesced per instance (issue 8: a burst of commits queued one job each, and every job
 * ran the whole sender): at most one job per KICK_INTERVAL_MS; a kick arriving inside the interval
 * rides on one trailing job queued at its end. Every call is therefore followed by a job queued
 * after it — so after the caller's transaction committed — within KICK_INTERVAL_MS.
 */
const KICK_INTERVAL_MS = 250;
let lastKickAt = 0;
let trailingKick: Promise<void> | null = null;

async function queueKick(): Promise<void> {
  lastKickAt = Date.now();
  try {
    await enqueue(EMAIL_SEND_JOB, EMAIL_KICK_DATA);
  } catch (err) {
    console.warn(`[email] could not queue the sender, the sweeper will send: ${(err as Error).message}`);
  }
}

/**
 * Asks a worker to send pending emails now. Best effort: if the queue is unreachable the
 * per-minute sweeper sends them anyway, so this never fails the caller.
 */
export async function kickEmailSender(): Promise<void> {
  if (!env().JOBS_ENABLED) return; // nothing is queued (tests, CLI scripts): callers send directly
  if (trailingKick) return trailingKick;
  const wait = lastKickAt + KICK_INTERVAL_MS - Date.now();
  if (wait <= 0) return queueKick();
  trailingKick = new Promise<void>((resolve) => setTimeout(resolve, wait)).then(() => {
    trailingKick = null;
    return queueKick();
  });
  return trailingKick;
}

type OutboxRow = {
  id: string;
  dedupeKey: string;
  toEmail: string;
  subject: string;
  text: string;
  html: string;
  attachments: unknown;
  headers: unknown;
  attempts: number;
};

type SendReport = { sent: number; stored: number; failed: number; retrying: number };

/**
 * Sends pending outbox rows, oldest first. Each row is sent inside its own transaction holding
 * the row lock (FOR UPDATE SKIP LOCKED), so two workers never send the same row, and it is marked
 * sent in that same transaction. A crash between the SMTP hand-off and the commit can resend one
 * email; the Message-ID is derived from the row id so mail systems can drop that duplicate.
 * Without SMTP_URL, rows are marked sent without leaving the app ("stored"): /admin/emails shows them.
 */
export async function sendPendingEmails({
  limit = 50,
  transport = smtpTransport(),
}: { limit?: number; transport?: MailTransport | null } = {}): Promise<SendReport> {
  const report: SendReport = { sent: 0, stored: 0, failed: 0, retrying: 0 };
  if (!transport) {
    // Nothing leaves the app: the same rows the loop below would take, marked sent in one statement.
    const stored = await db.$queryRaw<{ id: string }[]>`
      UPDATE "EmailOutbox" SET status = 'sent', "sentAt" = now(), attempts = attempts + 1
      WHERE id IN (SELECT id FROM "EmailOutbox" WHERE status = 'pending'
                   ORDER BY attempts ASC, "createdAt" ASC LIMIT ${limit} FOR UPDATE SKIP LOCKED)
      RETURNING id`;
    report.stored = stored.length;
    return report;
  }
  const candidates = await db.emailOutbox.findMany({
    where: { status: "pending" },
    // Fewest attempts first: rows that keep failing never hold back fresh ones.
    orderBy: [{ attempts: "asc" }, { createdAt: "asc" }],
    take: limit,
    select: { id: true },
  });
  for (const { id } of candidates) {
    await db.$transaction(
      async (tx) => {
        const rows = await tx.$queryRaw<OutboxRow[]>`
          SELECT id, "dedupeKey", "toEmail", subject, text, html, attachments, headers, attempts
          FROM "EmailOutbox" WHERE id = ${id} AND status = 'pending'
          FOR UPDATE SKIP LOCKED`;
        const row = rows[0];
        if (!row) return; // sent meanwhile, or another worker holds it
        try {
          await transport.sendMail({
            from: env().EMAIL_FROM,
            to: row.toEmail,
            subject: row.subject,
            text: row.text,
            html: row.html,
            messageId: `<${row.id}@pactnexus.outbox>`,
            headers: {
              ...(row.headers && typeof row.headers === "object"
                ? (row.headers as Record<string, string>)
                : {}),
              "X-PactNexus-Dedupe-Key": row.dedupeKey,
            },
            attachments: Array.isArray(row.attachments)
              ? await openSealedAttachments(row.attachments as Parameters<typeof openSealedAttachments>[0])
              : undefined,
          });
          await tx.emailOutbox.update({
            where: { id },
            data: { status: "sent", sentAt: new Date(), attempts: { increment: 1 }, lastError: null },
          });
          report.sent++;
        } catch (err) {
          const attempts = row.attempts + 1;
          const giveUp = attempts >= MAX_SEND_ATTEMPTS;
          await tx.emailOutbox.update({
            where: { id },
            data: {
              attempts,
              lastError: String((err as Error)?.message ?? err).slice(0, 1000),
              status: giveUp ? "failed" : "pending",
            },
          });
          if (giveUp) report.failed++;
          else report.retrying++;
          console.warn(`[email] sending ${row.id} failed (attempt ${attempts}): ${(err as Error)?.message}`);
        }
      },
      { timeout: 60_000, maxWait: 10_000 },
    );
  }
  return report;
}
