import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { issueTickets } from "@/lib/tickets/service";
import { unsealTicketToken } from "@/lib/security/ticket-token";
import { checkIn, CODE_LOOKUPS_PER_MINUTE, doorCountsFor, searchAtDoor } from "@/lib/tickets/check-in";
import { doorHelpersOf, inviteDoorHelper } from "@/lib/tickets/door-helpers";
import { getCommitmentsCsv } from "@/lib/pledges/commitments-csv";
import { createCampaign, createUser } from "@/tests/helpers/factories";
import { chargedPlace } from "@/tests/tickets/places";

// Issue 36 item 2: the check-in core — once under concurrency, void, wrong event, who may check in.

type Actor = { id: string; email: string; isAdmin: boolean };
const actorOf = (u: { id: string; email: string }, isAdmin = false): Actor => ({
  id: u.id,
  email: u.email,
  isAdmin,
});

/** A confirmed paid event with `n` charged places (named Guest0..), each with its ticket. */
async function confirmedEvent(n: number, opts: { attendeesAnonymous?: boolean } = {}) {
  const organizer = await createUser({ name: "Olga Organizer" });
  const c = await createCampaign({
    creatorId: organizer.id,
    goal: 1,
    ticketPriceCents: 2000,
    status: "charged",
    attendeesAnonymous: opts.attendeesAnonymous ?? true,
    identityRevelationType: "never",
  });
  const people = [];
  for (let i = 0; i < n; i++) {
    const u = await createUser({ name: `Guest${i} Zebra` });
    const p = await chargedPlace(c.id, u.id);
    people.push({ user: u, pledgeId: p.id });
  }
  await issueTickets(db, c.id);
  const tickets = await db.ticket.findMany({ where: { campaignId: c.id } });
  const byPledge = new Map(tickets.map((t) => [t.pledgeId, t]));
  const withTickets = people.map((p) => {
    const t = byPledge.get(p.pledgeId)!;
    return { ...p, code: t.code, token: unsealTicketToken(t.tokenSealed)! };
  });
  return { c, organizer: actorOf(organizer), people: withTickets };
}

async function verifiedUser(email?: string) {
  return createUser({ email, emailVerified: new Date(), name: "Hank Helper" });
}

describe("checking in at the door (issue 36 item 2)", () => {
  it("two doors checking in one ticket at once: exactly one checks in, the other says already (when, by whom)", async () => {
    const { c, organizer, people } = await confirmedEvent(1);
    const helper = await verifiedUser();
    await inviteDoorHelper(organizer, { campaignId: c.id, email: helper.email.toUpperCase() });
    const answers = await Promise.all([
      checkIn(organizer, c.id, { token: people[0].token }),
      checkIn(actorOf(helper), c.id, { code: people[0].code.toLowerCase() }),
    ]);
    const kinds = answers.map((a) => a.kind).sort();
    expect(kinds).toEqual(["already", "checked_in"]);
    expect(await db.checkIn.count({ where: { campaignId: c.id } })).toBe(1);
    const already = answers.find((a) => a.kind === "already")!;
    const row = await db.checkIn.findFirstOrThrow({ where: { campaignId: c.id } });
    expect(already).toMatchObject({ at: row.at.toISOString() });
    expect(["the organizer", "Hank Helper"]).toContain((already as { by: string }).by);
    // a third scan, later: still one row, still "already"
    const again = await checkIn(organizer, c.id, {
      code: `${people[0].code.slice(0, 4)}-${people[0].code.slice(4)}`,
    });
    expect(again.kind).toBe("already");
    expect(await db.checkIn.count({ where: { campaignId: c.id } })).toBe(1);
  });

  it("answers with the name (organizer) and what they paid; by attendee number too", async () => {
    const { c, organizer, people } = await confirmedEvent(2);
    const a = await checkIn(organizer, c.id, { code: people[0].code });
    expect(a).toMatchObject({ kind: "checked_in", person: "Guest0 Zebra", paidCents: 2000 });
    const number = (await db.pledge.findUniqueOrThrow({ where: { id: people[1].pledgeId } })).attendeeNumber!;
    const b = await checkIn(organizer, c.id, { number });
    expect(b).toMatchObject({ kind: "checked_in", person: "Guest1 Zebra", number });
    expect(await doorCountsFor(organizer, c.id)).toEqual({ checkedIn: 2, expected: 2 });
    // the organizer's CSV gains the check-in time
    const csv = (await getCommitmentsCsv(c.id, { ...organizer, name: "Olga Organizer" }))!.csv
      .trim()
      .split("\r\n");
    expect(csv[0].endsWith('"Checked in at (UTC)"')).toBe(true);
    const at = await db.checkIn.findFirstOrThrow({ where: { campaignId: c.id }, orderBy: { at: "asc" } });
    expect(csv.slice(1).filter((l) => l.endsWith(`"${at.at.toISOString()}"`)).length).toBeGreaterThanOrEqual(
      1,
    );
    expect(csv.slice(1).every((l) => /"\d{4}-\d\d-\d\dT[^"]+Z"$/.test(l))).toBe(true);
  });

  it("a void ticket says why and checks nobody in; a withdrawn place is not expected", async () => {
    const { c, organizer, people } = await confirmedEvent(2);
    await db.pledge.update({ where: { id: people[0].pledgeId }, data: { withdrawnAt: new Date() } });
    const a = await checkIn(organizer, c.id, { token: people[0].token });
    expect(a).toMatchObject({ kind: "void", reason: "Void: this commitment was withdrawn." });
    expect(await db.checkIn.count({ where: { campaignId: c.id } })).toBe(0);
    expect(await doorCountsFor(organizer, c.id)).toEqual({ checkedIn: 0, expected: 1 });
  });

  it("another event's ticket is 'not this event'; its code is unknown here; nonsense is refused without a 500", async () => {
    const one = await confirmedEvent(1);
    const two = await confirmedEvent(1);
    expect(await checkIn(one.organizer, one.c.id, { token: two.people[0].token })).toEqual({
      kind: "wrong_event",
    });
    expect((await checkIn(one.organizer, one.c.id, { code: two.people[0].code })).kind).toBe("unknown");
    expect((await checkIn(one.organizer, one.c.id, { token: "not-a-token" })).kind).toBe("unknown");
    await expect(checkIn(one.organizer, one.c.id, { code: 5 })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    await expect(checkIn(one.organizer, one.c.id, { sql: "x" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await db.checkIn.count({ where: { campaignId: { in: [one.c.id, two.c.id] } } })).toBe(0);
  });

  it("a stranger, a member, an admin and an unconfirmed invitee are refused; nothing changes", async () => {
    const { c, organizer, people } = await confirmedEvent(1);
    const stranger = await verifiedUser();
    const admin = await createUser({ isAdmin: true, emailVerified: new Date() });
    const unconfirmed = await createUser();
    await inviteDoorHelper(organizer, { campaignId: c.id, email: unconfirmed.email });
    for (const who of [
      null,
      actorOf(stranger),
      actorOf(people[0].user),
      actorOf(admin, true),
      actorOf(unconfirmed),
    ])
      await expect(checkIn(who, c.id, { code: people[0].code })).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(searchAtDoor(actorOf(stranger), c.id, "Guest")).rejects.toMatchObject({ code: "FORBIDDEN" });
    expect(await doorCountsFor(actorOf(stranger), c.id)).toBeNull();
    expect(await db.checkIn.count({ where: { campaignId: c.id } })).toBe(0);
    // only the organizer invites
    await expect(
      inviteDoorHelper(actorOf(stranger), { campaignId: c.id, email: stranger.email }),
    ).rejects.toMatchObject({ code: "FORBIDDEN" });
    await expect(
      inviteDoorHelper(organizer, { campaignId: c.id, email: "not an email" }),
    ).rejects.toMatchObject({
      code: "BAD_REQUEST",
    });
    expect(await doorHelpersOf(actorOf(stranger), c.id)).toBeNull();
  });

  it("a door helper checks in at their one event only, sees hidden names as a member does, and searches by number or code only", async () => {
    const { c, organizer, people } = await confirmedEvent(2, { attendeesAnonymous: true });
    const other = await confirmedEvent(1);
    const helper = await verifiedUser();
    await inviteDoorHelper(organizer, { campaignId: c.id, email: helper.email });
    const email = await db.emailOutbox.findFirstOrThrow({ where: { toEmail: helper.email } });
    expect(email.text).toContain(`/campaign/${c.id}/check-in`);
    expect(await doorHelpersOf(organizer, c.id)).toEqual([expect.objectContaining({ email: helper.email })]);

    const h = actorOf(helper);
    const a = await checkIn(h, c.id, { token: people[0].token });
    expect(a.kind).toBe("checked_in");
    expect((a as { person: string }).person).toMatch(/^Anonymous Attendee #\d+$/);
    expect(JSON.stringify(a)).not.toContain("Guest0");
    // not at another event
    await expect(checkIn(h, other.c.id, { code: other.people[0].code })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    // search: a name finds nothing for the helper, everything for the organizer
    expect((await searchAtDoor(h, c.id, "Guest1")).rows).toEqual([]);
    expect((await searchAtDoor(organizer, c.id, "guest1")).rows).toEqual([
      expect.objectContaining({ person: "Guest1 Zebra", checkedInAt: null }),
    ]);
    const number = (await db.pledge.findUniqueOrThrow({ where: { id: people[1].pledgeId } })).attendeeNumber!;
    const byNumber = await searchAtDoor(h, c.id, `#${number}`);
    expect(byNumber.rows).toEqual([
      { person: `Anonymous Attendee #${number}`, number, checkedInAt: null, void: null },
    ]);
    expect(byNumber.counts).toEqual({ checkedIn: 1, expected: 2 });
    const byCode = await searchAtDoor(h, c.id, people[1].code.toLowerCase());
    expect(byCode.rows.map((r) => r.number)).toEqual([number]);
    expect(JSON.stringify([byNumber, byCode])).not.toMatch(/Guest|example\.test/);
  });

  it("typed codes are rate-limited per event", async () => {
    const prev = process.env.RATE_LIMIT_DISABLED;
    process.env.RATE_LIMIT_DISABLED = "false";
    try {
      const { c, organizer } = await confirmedEvent(1);
      await db.rateLimitHit.createMany({
        data: Array.from({ length: CODE_LOOKUPS_PER_MINUTE }, () => ({ key: `checkin-code:event:${c.id}` })),
      });
      await expect(checkIn(organizer, c.id, { code: "2345-6789" })).rejects.toMatchObject({
        code: "RATE_LIMITED",
      });
      const other = await confirmedEvent(1);
      expect((await checkIn(other.organizer, other.c.id, { code: other.people[0].code })).kind).toBe(
        "checked_in",
      );
    } finally {
      process.env.RATE_LIMIT_DISABLED = prev;
    }
  });
});
