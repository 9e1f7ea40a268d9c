import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { withdrawCommitment } from "@/lib/pledges/withdraw";
import { getMyCommitment, listMyCommitments } from "@/lib/pledges/mine";
import { listEventCommitments } from "@/lib/pledges/queries";
import { listManagedPledges } from "@/lib/pledges/manage-queries";
import { groupsRefusal, SEAT_TEXTS, seatsRefusal } from "@/lib/events/seats";
import { DROP_TEXTS } from "@/lib/pledges/seats";
import { getEditView } from "@/lib/campaigns/edit-view";
import { updateCampaign } from "@/lib/campaigns/edit";
import { guestTicketsAt, holderTicketAt } from "@/lib/tickets/queries";
import { cancelCampaign } from "@/lib/cancellation/service";
import { createCampaign, createUser } from "@/tests/helpers/factories";

/* Issue 37 item 1: group commitments on free events — seats counted, waiting as a group, dropped. */

const viewer = (u: { id: string; email: string }) => ({
  id: u.id,
  email: u.email,
  name: null,
  isAdmin: false,
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (e: Error) => e.message,
  );

async function freeEvent(overrides: Parameters<typeof createCampaign>[0] = {}) {
  return createCampaign({ goal: 10, maxSeats: 4, ...overrides });
}
async function person() {
  return viewer(await createUser());
}
const counters = (id: string) =>
  db.campaign.findUniqueOrThrow({
    where: { id },
    select: { committedCount: true, pledgeCount: true, waitlistCount: true, status: true },
  });
const seatsOf = (campaignId: string, userId: string) =>
  db.pledge.findMany({
    where: { campaignId, userId, withdrawnAt: null },
    orderBy: { guestSlot: "asc" },
    select: { id: true, groupId: true, guestSlot: true, standing: true, attendeeNumber: true },
  });

describe("committing with friends", () => {
  it("a group of 3 is three seats: each counted, numbered, in one group; listed once", async () => {
    const c = await freeEvent();
    const ada = await person();
    const r = await commitToCampaign(ada, { campaignId: c.id, seats: 3 });
    expect(r).toMatchObject({ seats: 3, committedCount: 3, waitlisted: false });
    const seats = await seatsOf(c.id, ada.id);
    expect(seats.map((s) => s.guestSlot)).toEqual([0, 1, 2]);
    expect(new Set(seats.map((s) => s.groupId))).toEqual(new Set([r.pledgeId]));
    expect(new Set(seats.map((s) => s.attendeeNumber)).size).toBe(3);
    expect(await counters(c.id)).toMatchObject({ committedCount: 3, pledgeCount: 3 });

    // the public list: one row with its seats; My commitments: one entry, "You and 2 guests"
    const bo = await person();
    const listed = await listEventCommitments(c.id, bo);
    expect(listed.items).toHaveLength(1);
    expect(listed.items[0]).toMatchObject({ seats: 3 });
    expect(JSON.stringify(listed)).not.toContain(ada.email);
    const mine = (await listMyCommitments(ada)).filter((m) => m.campaignId === c.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.seats?.text).toBe("You and 2 guests");
    expect((await getMyCommitment(ada, { campaignId: c.id }))?.pledgeId).toBe(r.pledgeId);
    // the organizer's list: every seat, said which
    const managed = await listManagedPledges(c.id, { paid: false, cancelled: false });
    expect(managed.map((m) => m.seat).sort()).toEqual(["Guest 1", "Guest 2", "Holds 3 seats"]);
    // and the person cannot commit again beside their group
    expect(await refusal(commitToCampaign(ada, { campaignId: c.id }))).toMatch(/already/i);
  });

  it("refuses more seats than the event takes and a bad number; nothing written", async () => {
    const c = await freeEvent({ maxSeats: 3 });
    const ada = await person();
    expect(await refusal(commitToCampaign(ada, { campaignId: c.id, seats: 4 }))).toBe(SEAT_TEXTS.tooMany(3));
    expect(await refusal(commitToCampaign(ada, { campaignId: c.id, seats: 0 }))).toBe(SEAT_TEXTS.invalid);
    expect(await refusal(commitToCampaign(ada, { campaignId: c.id, seats: "lots" }))).toBe(
      SEAT_TEXTS.invalid,
    );
    const off = await freeEvent({ maxSeats: 1 });
    expect(await refusal(commitToCampaign(ada, { campaignId: off.id, seats: 2 }))).toBe(
      SEAT_TEXTS.tooMany(1),
    );
    const paid = await freeEvent({ ticketPriceCents: 1500 });
    // a paid event takes groups (tests/groups/paid-groups.test.ts); a card that is not the person's is refused
    expect(
      await refusal(commitToCampaign(ada, { campaignId: paid.id, seats: 2, paymentMethodId: "pm_x" })),
    ).toMatch(/one person per commitment|payment|card/i);
    // an event with a show-up deposit takes groups too (tests/groups/deposit-groups.test.ts), up to its M
    const deposit = { ...paid, depositCents: 1000 };
    expect(groupsRefusal(deposit)).toBeNull();
    expect(seatsRefusal(2, deposit)).toBeNull();
    expect(seatsRefusal(deposit.maxSeats + 1, deposit)).toBe(SEAT_TEXTS.tooMany(deposit.maxSeats));
    expect(groupsRefusal(paid)).toBeNull();
    expect(await db.pledge.count({ where: { userId: ada.id } })).toBe(0);
  });

  it("a group that reaches the goal confirms the event with every seat", async () => {
    const c = await freeEvent({ goal: 5 });
    for (let i = 0; i < 3; i++) await commitToCampaign(await person(), { campaignId: c.id });
    const ada = await person();
    const r = await commitToCampaign(ada, { campaignId: c.id, seats: 2 });
    expect(r).toMatchObject({ crossed: true, committedCount: 5, status: "charged" });
    expect(await counters(c.id)).toMatchObject({ committedCount: 5, status: "charged" });
    const seats = await db.pledge.findMany({ where: { campaignId: c.id, userId: ada.id } });
    expect(seats.every((s) => s.charged && s.verified)).toBe(true);
  });

  it("a late group to a confirmed free event is confirmed on arrival, every seat", async () => {
    const c = await freeEvent({ goal: 2, acceptAfterThreshold: true });
    await commitToCampaign(await person(), { campaignId: c.id, seats: 2 });
    const ada = await person();
    const r = await commitToCampaign(ada, { campaignId: c.id, seats: 3 });
    expect(r).toMatchObject({ late: true, committedCount: 5 });
    const seats = await db.pledge.findMany({ where: { campaignId: c.id, userId: ada.id } });
    expect(seats).toHaveLength(3);
    expect(seats.every((s) => s.charged)).toBe(true);
  });
});

describe("dropping seats and withdrawing", () => {
  it("drops guest seats before the tip, keeps the commitment; withdrawing takes every seat", async () => {
    const c = await freeEvent();
    const ada = await person();
    await commitToCampaign(ada, { campaignId: c.id, seats: 3 });
    const dropped = await withdrawCommitment(ada, { campaignId: c.id, dropSeats: 1 });
    expect(dropped).toMatchObject({ droppedSeats: 1, committedCount: 2 });
    expect((await seatsOf(c.id, ada.id)).map((s) => s.guestSlot)).toEqual([0, 1]);
    expect(await refusal(withdrawCommitment(ada, { campaignId: c.id, dropSeats: 2 }))).toBe(
      DROP_TEXTS.tooMany(1),
    );
    expect((await getMyCommitment(ada, { campaignId: c.id }))?.seats?.text).toBe("You and 1 guest");

    await withdrawCommitment(ada, { campaignId: c.id });
    expect(await seatsOf(c.id, ada.id)).toEqual([]);
    expect(await counters(c.id)).toMatchObject({ committedCount: 0, pledgeCount: 0 });
    // and may commit again, a new group
    const again = await commitToCampaign(ada, { campaignId: c.id, seats: 2 });
    expect(again.committedCount).toBe(2);
  });

  it("someone without guests cannot drop a seat; another person's seats are out of reach", async () => {
    const c = await freeEvent();
    const ada = await person();
    const bo = await person();
    await commitToCampaign(ada, { campaignId: c.id, seats: 3 });
    await commitToCampaign(bo, { campaignId: c.id });
    expect(await refusal(withdrawCommitment(bo, { campaignId: c.id, dropSeats: 1 }))).toBe(
      DROP_TEXTS.tooMany(0),
    );
    expect((await seatsOf(c.id, ada.id)).length).toBe(3);
  });
});

describe("a group and the capacity", () => {
  /** The organizer raises the capacity through the edit form: the places it opens go to the line. */
  async function raiseCapacity(organizer: ReturnType<typeof viewer>, campaignId: string, capacity: number) {
    const view = await getEditView(organizer, campaignId);
    if (!view) throw new Error("no edit view");
    await updateCampaign(organizer, campaignId, { ...view.values, capacity: String(capacity) });
  }

  it("a group that does not fit waits whole, and keeps its place while one behind it that fits gets in", async () => {
    const organizer = await person();
    const c = await freeEvent({ goal: 5, capacity: 5, creatorId: organizer.id });
    for (let i = 0; i < 4; i++) await commitToCampaign(await person(), { campaignId: c.id });
    const ada = await person();
    const r = await commitToCampaign(ada, { campaignId: c.id, seats: 3 });
    expect(r).toMatchObject({ waitlisted: true, position: 1 });
    expect((await seatsOf(c.id, ada.id)).map((s) => s.standing)).toEqual(["waiting", "waiting", "waiting"]);
    expect(await counters(c.id)).toMatchObject({ pledgeCount: 4, waitlistCount: 3 });
    // one place is left: a person committing now takes it (the group does not fit it)
    const bo = await person();
    expect((await commitToCampaign(bo, { campaignId: c.id })).waitlisted).toBe(false);
    // full now: the next waits behind the group
    const cy = await person();
    expect((await commitToCampaign(cy, { campaignId: c.id })).waitlisted).toBe(true);
    // one place opens: the group does not fit it and keeps its place; it goes to the next who fits
    await raiseCapacity(organizer, c.id, 6);
    expect((await seatsOf(c.id, cy.id))[0]!.standing).toBe("in");
    expect((await seatsOf(c.id, ada.id)).every((s) => s.standing === "waiting")).toBe(true);
    // three places open: the group takes them together
    await raiseCapacity(organizer, c.id, 9);
    expect((await seatsOf(c.id, ada.id)).every((s) => s.standing === "in")).toBe(true);
    expect(await counters(c.id)).toMatchObject({ pledgeCount: 9, waitlistCount: 0 });
  });

  it("a waiting group is one entry in line: its seats share a place, the one behind it is next", async () => {
    const c = await freeEvent({ goal: 3, capacity: 3 });
    for (let i = 0; i < 3; i++) await commitToCampaign(await person(), { campaignId: c.id });
    const ada = await person();
    expect(await commitToCampaign(ada, { campaignId: c.id, seats: 3 })).toMatchObject({ position: 1 });
    const bo = await person();
    expect(await commitToCampaign(bo, { campaignId: c.id })).toMatchObject({ waitlisted: true, position: 2 });
    const cy = await person();
    expect(await commitToCampaign(cy, { campaignId: c.id, seats: 2 })).toMatchObject({ position: 3 });
    expect(await counters(c.id)).toMatchObject({ waitlistCount: 6 });
    // the cards say the same (each seat's id is random: the holder's own is never behind its guests)
    for (const [who, n] of [
      [ada, 1],
      [bo, 2],
      [cy, 3],
    ] as const)
      expect((await getMyCommitment(who, { campaignId: c.id }))?.waitlist?.position).toBe(n);
    const mine = (await listMyCommitments(cy)).find((m) => m.campaignId === c.id);
    expect(mine?.waitlist?.position).toBe(3);
    // the email says it too
    const mail = await db.emailOutbox.findFirst({
      where: { toEmail: bo.email, subject: { contains: "waitlist" } },
    });
    expect(mail?.text).toContain("position 2");
  });

  it("a group that agreed to it is promoted in part, its holder first, then the rest as places open", async () => {
    const organizer = await person();
    const c = await freeEvent({ goal: 5, capacity: 5, creatorId: organizer.id });
    for (let i = 0; i < 4; i++) await commitToCampaign(await person(), { campaignId: c.id });
    const ada = await person();
    // the holder takes the one place left at once (it reaches the goal: the free event is confirmed)
    const r = await commitToCampaign(ada, { campaignId: c.id, seats: 3, partialOk: true });
    expect(r).toMatchObject({
      waitlisted: false,
      position: null,
      crossed: true,
      committedCount: 5,
      seatsWaiting: 2,
    });
    expect((await seatsOf(c.id, ada.id)).map((s) => s.standing)).toEqual(["in", "waiting", "waiting"]);
    const told = await db.emailOutbox.findMany({
      where: { toEmail: ada.email },
      select: { dedupeKey: true },
    });
    expect(told.some((e) => e.dedupeKey.startsWith("waitlist-joined"))).toBe(false);
    const mine = await getMyCommitment(ada, { campaignId: c.id });
    expect(mine?.seats).toMatchObject({
      text: "You and 2 guests — 2 seats still waiting for a place",
      canDrop: true,
    });
    await raiseCapacity(organizer, c.id, 6);
    expect((await seatsOf(c.id, ada.id)).map((s) => s.standing)).toEqual(["in", "in", "waiting"]);
    expect(await counters(c.id)).toMatchObject({ pledgeCount: 6, waitlistCount: 1 });
    // after the tip a guest still waiting may be dropped; one holding a place may not (it is binding)
    await withdrawCommitment(ada, { campaignId: c.id, dropSeats: 1 });
    expect((await seatsOf(c.id, ada.id)).map((s) => s.standing)).toEqual(["in", "in"]);
    expect(await counters(c.id)).toMatchObject({ pledgeCount: 6, waitlistCount: 0 });
    expect(await refusal(withdrawCommitment(ada, { campaignId: c.id, dropSeats: 1 }))).toMatch(/binding/);
  });
});

describe("a personal threshold on a group", () => {
  it("counts the group's seats: a group of 3 waiting for 5 joins when 2 others are in", async () => {
    const c = await freeEvent({ goal: 8 });
    const ada = await person();
    const r = await commitToCampaign(ada, { campaignId: c.id, seats: 3, minPeople: 5 });
    expect(r).toMatchObject({ member: false, committedCount: 0 });
    await commitToCampaign(await person(), { campaignId: c.id });
    expect((await counters(c.id)).committedCount).toBe(1);
    await commitToCampaign(await person(), { campaignId: c.id });
    // 2 firm + the group's 3 = 5: the group's condition holds, every seat counts
    expect((await counters(c.id)).committedCount).toBe(5);
    expect((await seatsOf(c.id, ada.id)).every((s) => s.standing === "in")).toBe(true);
  });
});

describe("a group's tickets", () => {
  it("one ticket per seat: the holder's own on the event page, the guests' printed with it; nobody else's", async () => {
    const c = await freeEvent({ goal: 3 });
    const ada = await person();
    const r = await commitToCampaign(ada, { campaignId: c.id, seats: 3 });
    expect(r.crossed).toBe(true);
    const own = await holderTicketAt(ada.id, c.id);
    expect(own?.pledgeId).toBe(r.pledgeId);
    const guests = await guestTicketsAt(ada.id, c.id);
    expect(guests).toHaveLength(2);
    expect(new Set([own!.code, ...guests.map((g) => g.code)]).size).toBe(3);
    expect(JSON.stringify(guests)).not.toMatch(/"token"/);
    expect(await db.ticket.count({ where: { campaignId: c.id } })).toBe(3);
    const bo = await person();
    expect(await guestTicketsAt(bo.id, c.id)).toEqual([]);
    expect(await holderTicketAt(bo.id, c.id)).toBeNull();
  });
});

describe("a group and a cancelled event", () => {
  it("every seat shows the cancellation; the holder is emailed once; My commitments and the manage page agree", async () => {
    const organizer = await person();
    const c = await freeEvent({ creatorId: organizer.id });
    const ada = await person();
    await commitToCampaign(ada, { campaignId: c.id, seats: 3 });
    await cancelCampaign(organizer, { campaignId: c.id, reason: "The venue closed." });
    expect((await counters(c.id)).status).toBe("cancelled");
    const mine = (await listMyCommitments(ada)).filter((m) => m.campaignId === c.id);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.standingBadge).toBeNull();
    const managed = await listManagedPledges(c.id, { paid: false, cancelled: true });
    expect(new Set(managed.map((m) => m.status.label)).size).toBe(1);
    const told = await db.emailOutbox.count({
      where: { toEmail: ada.email, dedupeKey: { startsWith: "cancelled:" } },
    });
    expect(told).toBe(1);
  });
});
