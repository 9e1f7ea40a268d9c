import { afterAll, describe, expect, it } from "vitest";
import { startLocalSmtp, type ReceivedMail } from "@/tests/helpers/local-smtp";

// Email through a real SMTP server (nodemailer's smtp-server on loopback): the app's own sender,
// configured by SMTP_URL exactly as in production, delivers the outbox; each message is read back
// over SMTP and parsed (mailparser) the way a recipient's mail program would read it.
const smtp = await startLocalSmtp();
process.env.SMTP_URL = smtp.url;
afterAll(() => smtp.close());

// Imported once SMTP_URL is set: lib/env parses the environment once, at its first use.
const { db } = await import("@/lib/db");
const { queueOrganizerDigests } = await import("@/lib/pledges/digest");
const { sendPendingEmails } = await import("@/lib/email/service");
const { verifyUnsubscribeToken } = await import("@/lib/email/unsubscribe");
const { env } = await import("@/lib/env");
const { commitToCampaign } = await import("@/lib/pledges/service");
const { postUpdate } = await import("@/lib/updates/service");
const { createCampaign, createUser } = await import("@/tests/helpers/factories");

const ical = (await import("node-ical")).default;
const { decodeQr } = await import("@/tests/tickets/qr");
const { hashTicketToken } = await import("@/lib/security/ticket-token");

/** Everything a recipient can read in a message: headers, both bodies, the attachments' text. */
const readable = (m: ReceivedMail) =>
  [
    ...m.parsed.headerLines.map((h) => h.line),
    m.parsed.text ?? "",
    typeof m.parsed.html === "string" ? m.parsed.html : "",
    ...m.parsed.attachments.map((a) => a.content.toString("utf8")),
  ].join("\n");

async function deliverAll() {
  const before = smtp.state.accepted.length;
  const pending = await db.emailOutbox.count({ where: { status: "pending" } });
  const report = await sendPendingEmails({ limit: 500 });
  expect(report).toMatchObject({ sent: pending, failed: 0, retrying: 0 });
  return smtp.state.accepted.slice(before);
}

describe("email through a real SMTP server", () => {
  it("delivers every email of an event as written: headers, text and HTML, calendar file, list headers — and nobody else's identity", async () => {
    const organizer = await createUser({ name: "Olive Organizer", email: "olive.organizer@example.test" });
    const people = [
      await createUser({ name: "Bea Backer", email: "bea.backer@example.test" }),
      await createUser({ name: "Cyrus Quietly", email: "cyrus.quietly@example.test" }),
    ];
    // a free, dated, anonymous event that tips with these two commitments
    const startsAt = new Date(Math.floor(Date.now() / 60_000) * 60_000 + 10 * 24 * 3600_000);
    const c = await createCampaign({
      creatorId: organizer.id,
      goal: 2,
      ticketPriceCents: 0,
      startsAt,
      attendeesAnonymous: true,
      identityRevelationType: "never",
    });
    for (const p of people)
      await commitToCampaign(
        { id: p.id, email: p.email, name: p.name, isAdmin: false },
        { campaignId: c.id },
      );
    await postUpdate(
      { id: organizer.id, isAdmin: false },
      {
        campaignId: c.id,
        text: "Doors open at 7. Bring a friend.",
      },
    );
    expect(await queueOrganizerDigests(new Date(Date.now() + 3600_000))).toBeGreaterThan(0);

    const rows = await db.emailOutbox.findMany({ where: { status: "pending" } });
    const received = await deliverAll();
    expect(received).toHaveLength(rows.length);
    // each backer's commit email and confirmation (with a calendar file), the organizer's update to
    // each backer and the organizer's digest (with list headers)
    const kinds = new Set(rows.map((r) => r.dedupeKey.split(":")[0]));
    expect([...kinds].sort()).toEqual(
      expect.arrayContaining(["commit", "commit-digest", "confirmed", "update"]),
    );

    const everyone = [organizer, ...people];
    let ticketsRead = 0;
    for (const row of rows) {
      const m = received.find((r) => r.messageId === `<${row.id}@pactnexus.outbox>`);
      expect(m, `${row.dedupeKey} arrived`).toBeDefined();
      const mail = m!;
      const what = `${row.dedupeKey} to ${row.toEmail}`;
      // envelope and headers
      expect(mail.to, what).toEqual([row.toEmail]);
      expect(mail.parsed.to && !Array.isArray(mail.parsed.to) ? mail.parsed.to.value[0].address : "").toBe(
        row.toEmail,
      );
      expect(mail.parsed.from?.text, what).toBe(env().EMAIL_FROM.replace(/^(.*) <(.*)>$/, '"$1" <$2>'));
      expect(mail.parsed.subject, what).toBe(row.subject);
      expect(mail.dedupeKey, what).toBe(row.dedupeKey);
      // both bodies, as the outbox holds them
      expect(mail.parsed.text?.trim(), what).toBe(row.text.trim());
      // (the parser inlines an inline image's cid: reference as a data: URL; issue 36's ticket QR)
      const html = typeof mail.parsed.html === "string" ? mail.parsed.html : "";
      expect(
        html.replace(/src="data:image\/png;base64,[A-Za-z0-9+/=]+"/g, 'src="cid:ticket-qr"').trim(),
        what,
      ).toBe(row.html.trim());
      // a calendar entry travels as an .ics attachment a calendar program can read
      const attachments = (row.attachments as Array<{ filename: string }> | null) ?? [];
      expect(
        mail.parsed.attachments.map((a) => a.filename),
        what,
      ).toEqual(attachments.map((a) => a.filename));
      for (const a of mail.parsed.attachments) {
        if (a.contentType === "image/png") {
          // issue 36: the confirmation's ticket, inline, its QR holding the recipient's own ticket token
          expect(row.dedupeKey, what).toMatch(/^confirmed:/);
          expect(a.cid).toBe("ticket-qr");
          const token = (await decodeQr(a.content))!;
          const ticket = await db.ticket.findUnique({
            where: { tokenHash: hashTicketToken(token) },
            select: { pledge: { select: { user: { select: { email: true } } } } },
          });
          expect(ticket?.pledge.user.email, what).toBe(row.toEmail);
          ticketsRead++;
          continue;
        }
        expect(a.contentType).toBe("text/calendar");
        const events = Object.values(ical.sync.parseICS(a.content.toString("utf8"))).filter(
          (e) => e?.type === "VEVENT",
        );
        expect(events).toHaveLength(1);
        expect(events[0]).toMatchObject({ summary: c.title });
        expect((events[0] as { start: Date }).start.getTime()).toBe(startsAt.getTime());
      }
      // reminders, digests and updates carry one-click unsubscribe for their own recipient only
      const listUnsubscribe = mail.parsed.headerLines.find((h) => h.key === "list-unsubscribe")?.line;
      const listPost = mail.parsed.headerLines.find((h) => h.key === "list-unsubscribe-post")?.line;
      if (row.headers) {
        const url = listUnsubscribe?.match(/<([^>]+)>/)?.[1] ?? "";
        expect(url, what).toMatch(/^http:\/\/localhost:3000\/api\/unsubscribe\?token=/);
        const recipient = everyone.find((p) => p.email === row.toEmail)!;
        expect(verifyUnsubscribeToken(new URL(url).searchParams.get("token"))).toBe(recipient.id);
        expect(listPost).toBe("List-Unsubscribe-Post: List-Unsubscribe=One-Click");
      } else {
        expect(listUnsubscribe, what).toBeUndefined();
        expect(listPost, what).toBeUndefined();
      }
      // an anonymous event: no email names or addresses anyone but its own recipient
      const text = readable(mail);
      for (const other of everyone.filter((p) => p.email !== row.toEmail)) {
        expect(text, `${what} mentions ${other.email}`).not.toContain(other.email);
        expect(text, `${what} mentions ${other.name}`).not.toContain(other.name!);
      }
    }
    expect(ticketsRead, "each backer's Event Confirmed! carries their ticket").toBe(people.length);
    expect(rows.some((r) => r.headers)).toBe(true);
    expect(rows.some((r) => !r.headers)).toBe(true);
    expect(rows.some((r) => r.attachments)).toBe(true);

    // the List-Unsubscribe address works with one POST, as a mail program sends it
    const digest = received.find((m) => m.dedupeKey?.startsWith("commit-digest:"))!;
    const oneClick = digest.parsed.headerLines
      .find((h) => h.key === "list-unsubscribe")!
      .line.match(/<([^>]+)>/)![1];
    const { POST } = await import("@/app/api/unsubscribe/route");
    const res = await POST(new Request(oneClick, { method: "POST", body: "List-Unsubscribe=One-Click" }));
    expect(res.status).toBe(200);
    expect((await db.user.findUniqueOrThrow({ where: { id: organizer.id } })).emailOptOut).toBe(true);
  });

  it("a relay that refuses a message (451) gets it again on the next run, delivered once", async () => {
    const to = await createUser({ email: "retry.me@example.test" });
    const c = await createCampaign({ goal: 5, ticketPriceCents: 0 });
    await commitToCampaign(
      { id: to.id, email: to.email, name: to.name, isAdmin: false },
      { campaignId: c.id },
    );
    const row = await db.emailOutbox.findFirstOrThrow({ where: { toEmail: to.email, status: "pending" } });

    smtp.failNext(1);
    expect(await sendPendingEmails()).toMatchObject({ sent: 0, retrying: 1 });
    expect(await db.emailOutbox.findUniqueOrThrow({ where: { id: row.id } })).toMatchObject({
      status: "pending",
      attempts: 1,
      lastError: expect.stringContaining("451"),
    });
    expect(await sendPendingEmails()).toMatchObject({ sent: 1, retrying: 0 });
    expect(smtp.state.accepted.filter((m) => m.messageId === `<${row.id}@pactnexus.outbox>`)).toHaveLength(1);
  });
});
