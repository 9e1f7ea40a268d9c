import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { issueTickets } from "@/lib/tickets/service";
import { checkIn, searchAtDoor } from "@/lib/tickets/check-in";
import { listOutboxForAdmin } from "@/lib/email/queries";
import { openSealedAttachments } from "@/lib/email/ticket-image";
import { hashTicketToken, unsealTicketToken } from "@/lib/security/ticket-token";
import { createCampaign, createUser } from "@/tests/helpers/factories";
import { chargedPlace } from "@/tests/tickets/places";
import { decodeQr } from "@/tests/tickets/qr";

// The privacy matrix's unit half for issue 36 (e2e/privacy-matrix.spec.ts scans the HTTP answers):
// the door never hands a door helper another person's email, nor a name the event hides; a ticket's
// QR image and code reach its holder only — the email's inline image included, and not the admins'
// view of the outbox.

type Actor = { id: string; email: string; isAdmin: boolean };
const actorOf = (u: { id: string; email: string }, isAdmin = false): Actor => ({
  id: u.id,
  email: u.email,
  isAdmin,
});
const show = (code: string) => `${code.slice(0, 4)}-${code.slice(4)}`;

/** A confirmed paid event with the given attendees (charged places with tickets) and two door helpers. */
async function door(opts: { anonymous: boolean; names: (string | null)[] }) {
  const organizer = await createUser({ name: "Olga Organizer" });
  const c = await createCampaign({
    creatorId: organizer.id,
    goal: 1,
    ticketPriceCents: 2000,
    status: "charged",
    attendeesAnonymous: opts.anonymous,
    identityRevelationType: "never",
  });
  const people = [];
  for (const name of opts.names) {
    const user = await createUser({ name });
    const p = await chargedPlace(c.id, user.id);
    people.push({ user, pledgeId: p.id });
  }
  await issueTickets(db, c.id);
  const tickets = await db.ticket.findMany({
    where: { campaignId: c.id },
    include: { pledge: { select: { attendeeNumber: true } } },
  });
  const withTickets = people.map((p) => {
    const t = tickets.find((x) => x.pledgeId === p.pledgeId)!;
    return { ...p, code: t.code, number: t.pledge.attendeeNumber!, token: unsealTicketToken(t.tokenSealed)! };
  });
  // two door helpers: one without a name (whose email nobody but the organizer may read), one named
  const quiet = await createUser({ name: null, emailVerified: new Date() });
  const dan = await createUser({ name: "Dan Door", emailVerified: new Date() });
  await db.doorHelper.createMany({
    data: [quiet, dan].map((u) => ({ campaignId: c.id, email: u.email.toLowerCase() })),
  });
  return { c, organizer: actorOf(organizer), people: withTickets, quiet: actorOf(quiet), dan: actorOf(dan) };
}

describe("the door's answers to a door helper (issue 36 privacy)", () => {
  it("never carry an attendee's email or hidden name, nor another door helper's email; the organizer's do", async () => {
    const { c, organizer, people, quiet, dan } = await door({
      anonymous: true,
      names: ["Hana Hidden", null],
    });
    const [hana, nameless] = people;
    // the nameless helper checks Hana in; the named helper and the organizer scan her again
    expect((await checkIn(quiet, c.id, { token: hana.token })).kind).toBe("checked_in");
    const answers = [
      await checkIn(dan, c.id, { code: hana.code }),
      await checkIn(dan, c.id, { number: hana.number }),
      await checkIn(dan, c.id, { token: nameless.token }),
      await checkIn(dan, c.id, { token: nameless.token }),
      await searchAtDoor(dan, c.id, `#${hana.number}`),
      await searchAtDoor(dan, c.id, nameless.code),
      await searchAtDoor(dan, c.id, hana.user.email),
      await searchAtDoor(dan, c.id, "Hana"),
    ];
    const seen = JSON.stringify(answers);
    for (const secret of [hana.user.email, nameless.user.email, quiet.email, "Hana Hidden", organizer.email])
      expect(seen).not.toContain(secret);
    // the controls: the answers are real ones
    expect(answers[0]).toMatchObject({ kind: "already", person: `Anonymous Attendee #${hana.number}` });
    expect((answers[0] as { by: string }).by).toBe("a door helper");
    expect(answers[2]).toMatchObject({
      kind: "checked_in",
      person: `Anonymous Attendee #${nameless.number}`,
    });
    expect(answers[3]).toMatchObject({ kind: "already", by: "Dan Door" });
    // the organizer invited the helper by that email: they may read it
    const toOrganizer = await checkIn(organizer, c.id, { code: hana.code });
    expect(toOrganizer).toMatchObject({ kind: "already", person: "Hana Hidden", by: quiet.email });
    // the nameless helper themselves sees their own address
    expect(await checkIn(quiet, c.id, { code: hana.code })).toMatchObject({ by: quiet.email });
  });

  it("where names are public, show a helper the names, and a nameless attendee as a number, never an email", async () => {
    const { c, people, dan } = await door({ anonymous: false, names: ["Paula Public", null] });
    const [paula, nameless] = people;
    const a = await checkIn(dan, c.id, { token: paula.token });
    const b = await checkIn(dan, c.id, { code: nameless.code });
    const found = await searchAtDoor(dan, c.id, `${nameless.number}`);
    expect(a).toMatchObject({ kind: "checked_in", person: "Paula Public" });
    expect(b).toMatchObject({ kind: "checked_in", person: `Attendee #${nameless.number}` });
    expect(found.rows).toEqual([expect.objectContaining({ person: `Attendee #${nameless.number}` })]);
    expect(JSON.stringify([a, b, found])).not.toMatch(/@example\.test/);
  });
});

describe("a ticket's QR image and code (issue 36 privacy)", () => {
  it("are in its holder's Event Confirmed! only (the inline image decodes to their own token), and not in the admins' outbox view", async () => {
    const organizer = await createUser({ name: "Olga" });
    const c = await createCampaign({
      creatorId: organizer.id,
      goal: 2,
      startsAt: new Date(Date.now() + 9 * 86_400_000),
    });
    const people = [];
    for (const name of ["Ann", "Ben"]) {
      const u = await createUser({ name });
      await commitToCampaign(
        { id: u.id, email: u.email, name: u.name, isAdmin: false },
        { campaignId: c.id },
      );
      people.push(u);
    }
    const tickets = await db.ticket.findMany({ where: { campaignId: c.id }, include: { pledge: true } });
    expect(tickets).toHaveLength(2);
    const emails = await db.emailOutbox.findMany({ where: { dedupeKey: { contains: c.id } } });
    const withImage = [];
    for (const e of emails) {
      const sent = await openSealedAttachments(e.attachments as never);
      const image = sent.find((a) => a.cid === "ticket-qr");
      if (!image) continue;
      const token = (await decodeQr(image.content as Buffer))!;
      const t = tickets.find((x) => x.tokenHash === hashTicketToken(token))!;
      const holder = people.find((p) => p.id === t.pledge.userId)!;
      // the image is the recipient's own ticket, and the text carries their own code and nobody else's
      expect(e.toEmail).toBe(holder.email);
      expect(e.text).toContain(show(t.code));
      for (const other of tickets.filter((x) => x.id !== t.id)) {
        expect(JSON.stringify(e)).not.toContain(other.code);
        expect(JSON.stringify(e)).not.toContain(show(other.code));
      }
      // the row itself holds no raw token
      expect(JSON.stringify(e)).not.toContain(token);
      withImage.push(e.toEmail);
    }
    expect(withImage.sort()).toEqual(people.map((p) => p.email).sort());

    // an admin reads the outbox, but not a door credential: neither the token, its seal nor the code
    const admin = await createUser({ isAdmin: true });
    const listed = [];
    for (const p of people)
      listed.push(await listOutboxForAdmin({ id: admin.id, isAdmin: true }, { recipient: p.email }));
    const mine = listed.flatMap((l) => l.entries).filter((e) => e.subject.startsWith("Event Confirmed!"));
    expect(mine).toHaveLength(2);
    const view = JSON.stringify(listed);
    for (const t of tickets) {
      for (const secret of [unsealTicketToken(t.tokenSealed)!, t.tokenSealed, t.code, show(t.code)])
        expect(view).not.toContain(secret);
    }
    expect(mine.some((e) => e.text.includes("Your ticket code is (not shown here)"))).toBe(true);
  });
});
