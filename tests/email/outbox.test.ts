import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { queueEmail, queueEmails, sendPendingEmails, MAX_SEND_ATTEMPTS } from "@/lib/email/service";
import { listOutboxForAdmin } from "@/lib/email/queries";
import { commitReceivedEmail } from "@/lib/campaigns/emails";
import type { MailTransport } from "@/lib/email/transport";
import { createCampaign, createUser } from "@/tests/helpers/factories";

const uniq = () => Math.random().toString(36).slice(2, 10);

function email(key: string, to = "backer@example.test") {
  return { dedupeKey: key, to, subject: `Subject ${key}`, text: `Text ${key}`, html: `<p>Html ${key}</p>` };
}

function fakeTransport(fail: (to: string) => boolean = () => false) {
  const sent: Array<{ to: string; subject: string; messageId: string; attachments?: unknown[] }> = [];
  const transport: MailTransport = {
    async sendMail(m) {
      if (fail(m.to)) throw new Error("421 try again later");
      sent.push({ to: m.to, subject: m.subject, messageId: m.messageId, attachments: m.attachments });
    },
  };
  return { transport, sent };
}

async function clearOutbox() {
  await db.emailOutbox.deleteMany({});
}

describe("queueEmail (transactional outbox)", () => {
  it("writes the email only when the cause's transaction commits", async () => {
    const key = `cause:${uniq()}`;
    await expect(
      db.$transaction(async (tx) => {
        await queueEmail(tx, email(key));
        throw new Error("the cause failed");
      }),
    ).rejects.toThrow("the cause failed");
    expect(await db.emailOutbox.count({ where: { dedupeKey: key } })).toBe(0);

    await db.$transaction(async (tx) => {
      expect(await queueEmail(tx, email(key))).toBe(true);
    });
    expect(await db.emailOutbox.findUniqueOrThrow({ where: { dedupeKey: key } })).toMatchObject({
      toEmail: "backer@example.test",
      status: "pending",
    });
  });

  it("queues one email per dedupe key, however often the cause runs (also concurrently)", async () => {
    const key = `cause:${uniq()}`;
    const results = await Promise.all(
      Array.from({ length: 8 }, () => db.$transaction((tx) => queueEmail(tx, email(key)))),
    );
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await db.emailOutbox.count({ where: { dedupeKey: key } })).toBe(1);
    const n = await db.$transaction((tx) =>
      queueEmails(tx, [email(key), email(`${key}:b`), email(`${key}:c`)]),
    );
    expect(n).toBe(2);
  });

  it("normalises the recipient and refuses malformed emails", async () => {
    await db.$transaction((tx) => queueEmail(tx, email(`norm:${uniq()}`, "  Mixed.Case@Example.TEST ")));
    expect(await db.emailOutbox.count({ where: { toEmail: "mixed.case@example.test" } })).toBe(1);
    await expect(
      db.$transaction((tx) => queueEmail(tx, email(`bad:${uniq()}`, "not-an-email"))),
    ).rejects.toThrow();
    await expect(
      db.$transaction((tx) => queueEmail(tx, { ...email(`bad:${uniq()}`), subject: " " })),
    ).rejects.toThrow();
  });
});

describe("sendPendingEmails", () => {
  it("sends each pending email once, with a Message-ID derived from the row, and marks it sent", async () => {
    await clearOutbox();
    await db.$transaction((tx) =>
      queueEmails(tx, [email("s:1", "a@example.test"), email("s:2", "b@example.test")]),
    );
    const { transport, sent } = fakeTransport();
    expect(await sendPendingEmails({ transport })).toEqual({ sent: 2, stored: 0, failed: 0, retrying: 0 });
    expect(sent.map((s) => s.to).sort()).toEqual(["a@example.test", "b@example.test"]);
    const rows = await db.emailOutbox.findMany({ where: { dedupeKey: { in: ["s:1", "s:2"] } } });
    expect(rows.every((r) => r.status === "sent" && r.sentAt && r.attempts === 1)).toBe(true);
    expect(sent.map((s) => s.messageId).sort()).toEqual(rows.map((r) => `<${r.id}@pactnexus.outbox>`).sort());

    // A retried job (or the sweeper) finds nothing left to send.
    expect(await sendPendingEmails({ transport })).toEqual({ sent: 0, stored: 0, failed: 0, retrying: 0 });
    expect(sent).toHaveLength(2);
  });

  it("never sends a row twice when several workers run at once", async () => {
    await clearOutbox();
    await db.$transaction((tx) =>
      queueEmails(
        tx,
        Array.from({ length: 12 }, (_, i) => email(`par:${i}`, `p${i}@example.test`)),
      ),
    );
    const { transport, sent } = fakeTransport();
    const slow: MailTransport = {
      sendMail: async (m) => (await new Promise((r) => setTimeout(r, 10)), transport.sendMail(m)),
    };
    await Promise.all([
      sendPendingEmails({ transport: slow }),
      sendPendingEmails({ transport: slow }),
      sendPendingEmails({ transport: slow }),
    ]);
    expect(sent).toHaveLength(12);
    expect(new Set(sent.map((s) => s.to)).size).toBe(12);
  });

  it("retries a failing address on later runs and gives up after the attempt limit, without holding back others", async () => {
    await clearOutbox();
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    await db.$transaction((tx) =>
      queueEmails(tx, [email("r:bad", "bounce@example.test"), email("r:good", "fine@example.test")]),
    );
    const { transport, sent } = fakeTransport((to) => to === "bounce@example.test");
    expect(await sendPendingEmails({ transport })).toEqual({ sent: 1, stored: 0, failed: 0, retrying: 1 });
    for (let i = 2; i < MAX_SEND_ATTEMPTS; i++) await sendPendingEmails({ transport });
    expect(await db.emailOutbox.findUniqueOrThrow({ where: { dedupeKey: "r:bad" } })).toMatchObject({
      status: "pending",
      attempts: MAX_SEND_ATTEMPTS - 1,
    });
    expect(await sendPendingEmails({ transport })).toEqual({ sent: 0, stored: 0, failed: 1, retrying: 0 });
    const bad = await db.emailOutbox.findUniqueOrThrow({ where: { dedupeKey: "r:bad" } });
    expect(bad).toMatchObject({
      status: "failed",
      attempts: MAX_SEND_ATTEMPTS,
      lastError: "421 try again later",
    });
    expect(sent.map((s) => s.to)).toEqual(["fine@example.test"]);
    warn.mockRestore();
  });

  it("without SMTP stores the emails as delivered to the outbox", async () => {
    await clearOutbox();
    await db.$transaction((tx) => queueEmail(tx, email("nosmtp:1")));
    expect(await sendPendingEmails({ transport: null })).toEqual({
      sent: 0,
      stored: 1,
      failed: 0,
      retrying: 0,
    });
    expect(await db.emailOutbox.findUniqueOrThrow({ where: { dedupeKey: "nosmtp:1" } })).toMatchObject({
      status: "sent",
    });
  });

  it("passes attachments (the commit email's calendar file) to the transport", async () => {
    await clearOutbox();
    const user = await createUser();
    const c = await createCampaign({
      ticketPriceCents: 1500,
      goal: 3,
      startsAt: new Date(Date.now() + 10 * 24 * 3600_000),
    });
    await db.$transaction((tx) =>
      queueEmail(tx, commitReceivedEmail(c, { userId: user.id, email: user.email }, "pledge1")),
    );
    const { transport, sent } = fakeTransport();
    await sendPendingEmails({ transport });
    expect(sent[0].subject).toBe(`You're committed to "${c.title}"`);
    expect(sent[0].attachments).toEqual([
      expect.objectContaining({
        filename: "event.ics",
        contentType: expect.stringContaining("text/calendar"),
      }),
    ]);
  });
});

describe("listOutboxForAdmin", () => {
  it("lists recipient, subject, body and time for admins only, newest first, filtered by recipient", async () => {
    await clearOutbox();
    await db.$transaction((tx) => queueEmail(tx, email("l:1", "first@example.test")));
    await db.$transaction((tx) => queueEmail(tx, email("l:2", "second@example.test")));
    const admin = await createUser({ isAdmin: true });
    const page = await listOutboxForAdmin({ id: admin.id, isAdmin: true });
    expect(page.entries.map((e) => [e.toEmail, e.subject, e.text])).toEqual([
      ["second@example.test", "Subject l:2", "Text l:2"],
      ["first@example.test", "Subject l:1", "Text l:1"],
    ]);
    expect(page.entries[0].createdAt).toBeInstanceOf(Date);
    expect(
      (await listOutboxForAdmin({ id: admin.id, isAdmin: true }, { recipient: "FIRST@" })).entries.map(
        (e) => e.toEmail,
      ),
    ).toEqual(["first@example.test"]);
    await expect(listOutboxForAdmin({ id: "someone", isAdmin: false })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(listOutboxForAdmin(null)).rejects.toMatchObject({ code: "FORBIDDEN" });
  });
});
