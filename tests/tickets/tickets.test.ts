import { describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { cancelCampaign } from "@/lib/cancellation/service";
import { issueMissingTickets, issueTickets } from "@/lib/tickets/service";
import { ticketByCode, ticketByToken, ticketsOfHolder } from "@/lib/tickets/queries";
import { ticketVoidReason } from "@/lib/tickets/void";
import { openSealedAttachments } from "@/lib/email/ticket-image";
import { hashTicketToken, unsealTicketToken } from "@/lib/security/ticket-token";
import { runCharging } from "@/lib/charging/service";
import { queueDerivedEmails } from "@/lib/derived-emails";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";
import { chargedPlace } from "@/tests/tickets/places";
import { decodeQr } from "@/tests/tickets/qr";

// Issue 36 item 1: a door ticket per confirmed place — issued once, whatever the path and however
// many issuers race; void by the place's standing; the QR of the email holds the token.

// Codes drawn from this list first (to force a collision within an event), then at random.
const forcedCodes: string[] = [];
vi.mock("@/lib/security/ticket-token", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/security/ticket-token")>();
  return { ...real, newTicketCode: () => forcedCodes.shift() ?? real.newTicketCode() };
});

type V = { id: string; email: string; name: string | null; isAdmin: boolean };
const person = async (name: string): Promise<V> => {
  const u = await createUser({ name });
  return { id: u.id, email: u.email, name: u.name, isAdmin: false };
};

async function demoCard(userId: string): Promise<string> {
  const id = `pm_demo_tk${Math.random().toString(16).slice(2, 14)}`;
  await db.demoPaymentMethod.create({
    data: { id, userId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, behavior: "ok" },
  });
  return id;
}

/** A free event of `goal` that tips with its last committer (the real commit path). */
async function tippedFreeEvent(goal: number) {
  const organizer = await person("Olga");
  const c = await createCampaign({
    creatorId: organizer.id,
    goal,
    startsAt: new Date(Date.now() + 9 * 86_400_000),
  });
  const people: V[] = [];
  for (let i = 0; i < goal; i++) {
    const v = await person(`P${i}`);
    await commitToCampaign(v, { campaignId: c.id });
    people.push(v);
  }
  expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).status).toBe("charged");
  return { c, organizer, people };
}

describe("issuing", () => {
  it("gives each place of a free event that tips one ticket, with the QR in its Event Confirmed! email holding the token, and no raw token stored", async () => {
    const { c, people } = await tippedFreeEvent(2);
    const tickets = await db.ticket.findMany({ where: { campaignId: c.id }, include: { pledge: true } });
    expect(tickets).toHaveLength(2);
    expect(new Set(tickets.map((t) => t.pledge.userId))).toEqual(new Set(people.map((p) => p.id)));
    expect(new Set(tickets.map((t) => t.code)).size).toBe(2);

    for (const t of tickets) {
      const token = unsealTicketToken(t.tokenSealed)!;
      expect(hashTicketToken(token)).toBe(t.tokenHash);
      const email = await db.emailOutbox.findFirstOrThrow({
        where: { dedupeKey: `confirmed:${c.id}:${t.pledge.userId}` },
      });
      expect(email.subject).toMatch(/^Event Confirmed!/);
      const code = `${t.code.slice(0, 4)}-${t.code.slice(4)}`;
      expect(email.text).toContain(`Your ticket code is ${code}`);
      expect(email.html).toContain('src="cid:ticket-qr"');
      // the outbox row holds the token sealed only: not the token, not its QR
      expect(JSON.stringify(email)).not.toContain(token);
      const sent = await openSealedAttachments(email.attachments as never);
      const image = sent.find((a) => a.cid === "ticket-qr")!;
      expect(image.contentType).toBe("image/png");
      expect(sent.some((a) => a.filename.endsWith(".ics"))).toBe(true);
      expect(await decodeQr(image.content as Buffer)).toBe(token);
    }
  });

  it("gives a paid event's charged places their tickets with their Event Confirmed! (the charging pipeline, then the derived emails)", async () => {
    const c = await createCampaign({
      goal: 2,
      ticketPriceCents: 3500,
      startsAt: new Date(Date.now() + 9 * 86_400_000),
    });
    const people = [await person("Ada"), await person("Bo")];
    for (const v of people)
      await commitToCampaign(v, { campaignId: c.id, paymentMethodId: await demoCard(v.id) });
    expect(await db.ticket.count({ where: { campaignId: c.id } })).toBe(0); // tipped, not charged yet
    await runCharging(c.id);
    await queueDerivedEmails();
    const tickets = await db.ticket.findMany({ where: { campaignId: c.id }, include: { pledge: true } });
    expect(tickets.map((t) => t.pledge.userId).sort()).toEqual(people.map((p) => p.id).sort());
    for (const t of tickets) {
      const email = await db.emailOutbox.findFirstOrThrow({
        where: { dedupeKey: `confirmed:${c.id}:${t.pledge.userId}` },
      });
      expect(email.text).toContain("You were charged $35.00.");
      const sent = await openSealedAttachments(email.attachments as never);
      expect(await decodeQr(sent.find((a) => a.cid === "ticket-qr")!.content as Buffer)).toBe(
        unsealTicketToken(t.tokenSealed),
      );
    }
    await queueDerivedEmails();
    expect(await db.ticket.count({ where: { campaignId: c.id } })).toBe(2);
  });

  it("is idempotent and issues once under concurrent issuers (each in its own transaction)", async () => {
    const c = await createCampaign({ goal: 1, ticketPriceCents: 2000, status: "charged" });
    const places = await Promise.all(Array.from({ length: 8 }, () => chargedPlace(c.id)));
    const counts = await Promise.all(
      Array.from({ length: 6 }, () => db.$transaction((tx) => issueTickets(tx, c.id))),
    );
    expect(counts.reduce((a, b) => a + b, 0)).toBe(8);
    expect(await issueTickets(db, c.id)).toBe(0);
    const tickets = await db.ticket.findMany({ where: { campaignId: c.id } });
    expect(tickets.map((t) => t.pledgeId).sort()).toEqual(places.map((p) => p.id).sort());
    expect(new Set(tickets.map((t) => t.code)).size).toBe(8);
  });

  it("draws a code again when it is already taken at the event, and the same code may serve another event", async () => {
    const c = await createCampaign({ goal: 1, ticketPriceCents: 2000, status: "charged" });
    const other = await createCampaign({ goal: 1, ticketPriceCents: 2000, status: "charged" });
    const [a, b] = [await chargedPlace(c.id), await chargedPlace(c.id)];
    const o = await chargedPlace(other.id);
    forcedCodes.push("ABCDEFGH");
    await issueTickets(db, c.id, [a.id]);
    forcedCodes.push("ABCDEFGH", "ABCDEFGH", "HGFEDCBA");
    await issueTickets(db, c.id, [b.id]);
    forcedCodes.push("ABCDEFGH");
    await issueTickets(db, other.id, [o.id]);
    const code = async (pledgeId: string) =>
      (await db.ticket.findUniqueOrThrow({ where: { pledgeId } })).code;
    expect([await code(a.id), await code(b.id), await code(o.id)]).toEqual([
      "ABCDEFGH",
      "HGFEDCBA",
      "ABCDEFGH",
    ]);
    expect((await ticketByCode(c.id, "hgfe-dcba"))?.pledgeId).toBe(b.id);
    expect((await ticketByCode(other.id, "abcdefgh"))?.pledgeId).toBe(o.id);
    expect(await ticketByCode(c.id, "ZZZZZZZZ")).toBeNull();
    expect(await ticketByCode(c.id, "not a code")).toBeNull();
  });

  it("issues nothing before the tip, nor for an uncharged place; the holder's read issues a missing one", async () => {
    const pending = await createCampaign({ goal: 5, ticketPriceCents: 2000 });
    const early = await chargedPlace(pending.id);
    expect(await issueTickets(db, pending.id)).toBe(0);
    const c = await createCampaign({ goal: 1, ticketPriceCents: 2000, status: "charged" });
    const unpaid = await createPledge(c.id, undefined, { amountCents: 2000 });
    const paid = await chargedPlace(c.id);
    expect(await ticketsOfHolder(early.userId)).toEqual(new Map());
    expect(await ticketsOfHolder(unpaid.userId)).toEqual(new Map());
    const mine = await ticketsOfHolder(paid.userId);
    expect([...mine.keys()]).toEqual([paid.id]);
    expect(hashTicketToken(mine.get(paid.id)!.token)).toBe(
      (await db.ticket.findUniqueOrThrow({ where: { pledgeId: paid.id } })).tokenHash,
    );
    expect(await decodeQr(mine.get(paid.id)!.qr)).toBe(mine.get(paid.id)!.token);
  });
});

describe("the sweeper", () => {
  it("issues every confirmed place's missing ticket (a place confirmed without an Event Confirmed!), and nothing twice", async () => {
    const c = await createCampaign({ goal: 1, ticketPriceCents: 2000, status: "charged" });
    const pending = await createCampaign({ goal: 9, ticketPriceCents: 2000 });
    const places = [await chargedPlace(c.id), await chargedPlace(c.id)];
    const early = await chargedPlace(pending.id);
    // other tests' events may be swept too: count this event's rows
    await issueMissingTickets(10_000);
    expect((await db.ticket.findMany({ where: { campaignId: c.id } })).map((t) => t.pledgeId).sort()).toEqual(
      places.map((p) => p.id).sort(),
    );
    expect(await db.ticket.count({ where: { pledgeId: early.id } })).toBe(0);
    const before = await db.ticket.findMany({ where: { campaignId: c.id }, orderBy: { id: "asc" } });
    await issueMissingTickets(10_000);
    expect(await db.ticket.findMany({ where: { campaignId: c.id }, orderBy: { id: "asc" } })).toEqual(before);
  });
});

describe("a secret rotation", () => {
  it("leaves the door's lookup working; the holder's next read re-seals a new token under the new secret, keeping the code", async () => {
    const c = await createCampaign({ goal: 1, ticketPriceCents: 2000, status: "charged" });
    const p = await chargedPlace(c.id);
    const before = (await ticketsOfHolder(p.userId)).get(p.id)!;
    const saved = process.env.NEXTAUTH_SECRET;
    process.env.NEXTAUTH_SECRET = `${saved}-rotated`;
    try {
      // the door needs no secret: the scanned token still finds its ticket
      expect((await ticketByToken(before.token))?.pledgeId).toBe(p.id);
      const after = (await ticketsOfHolder(p.userId)).get(p.id)!;
      expect(after.code).toBe(before.code);
      expect(after.token).not.toBe(before.token);
      expect((await ticketByToken(after.token))?.pledgeId).toBe(p.id);
      expect(await ticketByToken(before.token)).toBeNull();
      expect((await ticketsOfHolder(p.userId)).get(p.id)!.token).toBe(after.token);
    } finally {
      process.env.NEXTAUTH_SECRET = saved;
    }
  });
});

describe("void", () => {
  it("is read from the place's standing, its refund and its event (one rule)", () => {
    const f = {
      standing: "in" as const,
      chargeStatus: "succeeded",
      refundedAt: null,
      campaignStatus: "charged",
    };
    expect(ticketVoidReason(f)).toBeNull();
    expect(ticketVoidReason({ ...f, standing: "withdrawn" })).toBe("withdrawn");
    expect(ticketVoidReason({ ...f, standing: "gave_up" })).toBe("gave_up");
    expect(ticketVoidReason({ ...f, standing: "dropped" })).toBe("dropped");
    expect(ticketVoidReason({ ...f, chargeStatus: "refunded", refundedAt: new Date() })).toBe("refunded");
    expect(ticketVoidReason({ ...f, standing: "withdrawn", campaignStatus: "cancelled" })).toBe("cancelled");
    expect(ticketVoidReason({ ...f, standing: "waiting" })).toBe("not_confirmed");
  });

  it("a withdrawn, given-up, dropped or refunded place's ticket is void at the door, and valid again when the place is reinstated", async () => {
    const c = await createCampaign({ goal: 1, ticketPriceCents: 2000, status: "charged" });
    const [w, g, d, r] = await Promise.all([1, 2, 3, 4].map(() => chargedPlace(c.id)));
    await issueTickets(db, c.id);
    const tokenOf = async (pledgeId: string) =>
      unsealTicketToken((await db.ticket.findUniqueOrThrow({ where: { pledgeId } })).tokenSealed)!;
    const now = new Date();
    await db.pledge.update({ where: { id: w.id }, data: { withdrawnAt: now } });
    await db.pledge.update({ where: { id: g.id }, data: { gaveUpAt: now, withdrawnAt: now } });
    await db.pledge.update({ where: { id: d.id }, data: { droppedAt: now, withdrawnAt: now } });
    await db.pledge.update({ where: { id: r.id }, data: { chargeStatus: "refunded", refundedAt: now } });
    const at = async (p: { id: string }) => (await ticketByToken(await tokenOf(p.id)))?.void?.reason;
    expect([await at(w), await at(g), await at(d), await at(r)]).toEqual([
      "withdrawn",
      "gave_up",
      "dropped",
      "refunded",
    ]);
    const door = await ticketByToken(await tokenOf(w.id));
    expect(door).toMatchObject({
      pledgeId: w.id,
      campaignId: c.id,
      void: { text: "Void: this commitment was withdrawn." },
    });
    expect(JSON.stringify(door)).not.toContain(await tokenOf(w.id));
    // a handover that fell through: the giver is in again, their ticket admits
    await db.pledge.update({ where: { id: g.id }, data: { gaveUpAt: null, withdrawnAt: null } });
    expect(await at(g)).toBeUndefined();
    expect((await ticketByToken(await tokenOf(g.id)))?.void).toBeNull();
    expect(await ticketByToken("x".repeat(43))).toBeNull();
    expect(await ticketByToken("not a token")).toBeNull();
  });

  it("every ticket of a cancelled event is void", async () => {
    const { c, organizer, people } = await tippedFreeEvent(2);
    await cancelCampaign(organizer, { campaignId: c.id });
    for (const p of people) {
      const [t] = [...(await ticketsOfHolder(p.id)).values()];
      expect(t.void?.reason).toBe("cancelled");
    }
  });
});
