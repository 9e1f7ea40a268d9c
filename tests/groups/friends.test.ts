import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { withdrawCommitment } from "@/lib/pledges/withdraw";
import { getMyCommitment, listMyCommitments } from "@/lib/pledges/mine";
import { listEventCommitments } from "@/lib/pledges/queries";
import { listManagedPledges } from "@/lib/pledges/manage-queries";
import {
  claimSeat,
  claimView,
  FRIEND_TEXTS,
  INVITE_RATE_LIMIT,
  inviteFriend,
  myInvites,
} from "@/lib/pledges/friends";
import { checkIn } from "@/lib/tickets/check-in";
import { guestTicketsAt, holderTicketAt, ticketByCode, ticketByToken } from "@/lib/tickets/queries";
import { openTicketToken } from "@/lib/tickets/service";
import { listOutboxForAdmin } from "@/lib/email/queries";
import { createCampaign } from "@/tests/helpers/factories";
import { linkSentTo, nameAndClaim, person } from "@/tests/helpers/friends";

/* Issue 37 item 1, named friends: invitations by email, the claim link, a claimed seat given back. */

const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (e: Error) => e.message,
  );
const counters = (id: string) =>
  db.campaign.findUniqueOrThrow({
    where: { id },
    select: { committedCount: true, pledgeCount: true, waitlistCount: true, status: true },
  });
/** Ada holds a group of `seats` on a free event (confirmed when `goal` ≤ seats). */
async function group(seats: number, goal = 10, maxSeats = 4) {
  const deadline = new Date(Date.now() + 7 * 86_400_000);
  const startsAt = new Date(deadline.getTime() + 86_400_000);
  const c = await createCampaign({ goal, maxSeats, deadline, startsAt, attendeesAnonymous: false });
  const ada = await person("Ada Holder");
  const r = await commitToCampaign(ada, { campaignId: c.id, seats });
  return { c, ada, groupId: r.pledgeId };
}

describe("inviting friends", () => {
  it("names a friend per guest seat, at most M − 1; the holder sees the addresses they typed, nobody else", async () => {
    const { c, ada } = await group(3, 10, 3);
    const bo = await person();
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: "Friend.One@Example.test" });
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 2, email: "friend.two@example.test" });
    expect(await db.seatInvite.count({ where: { campaignId: c.id, revokedAt: null } })).toBe(2);
    // the token rests only as its hash
    const rows = await db.seatInvite.findMany({ where: { campaignId: c.id } });
    const token = await linkSentTo("friend.one@example.test");
    expect(JSON.stringify(rows)).not.toContain(token);
    // no third guest seat, and no seat of someone else's
    expect(
      await refusal(inviteFriend(ada, { campaignId: c.id, guestSlot: 3, email: "x@example.test" })),
    ).toBe(FRIEND_TEXTS.noSeat);
    expect(await refusal(inviteFriend(bo, { campaignId: c.id, guestSlot: 1, email: "x@example.test" }))).toBe(
      FRIEND_TEXTS.notCommitted,
    );
    expect(await refusal(inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: ada.email }))).toBe(
      FRIEND_TEXTS.ownEmail,
    );
    expect(await refusal(inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: "not an email" }))).toBe(
      FRIEND_TEXTS.invalidEmail,
    );
    expect(await db.seatInvite.count({ where: { campaignId: c.id } })).toBe(2);

    expect(await myInvites(ada, { campaignId: c.id })).toEqual({
      seats: [
        { guestSlot: 1, invited: "friend.one@example.test" },
        { guestSlot: 2, invited: "friend.two@example.test" },
      ],
      claimed: [],
    });
    expect(await myInvites(bo, { campaignId: c.id })).toEqual({ seats: [], claimed: [] });
    expect(await myInvites(null, { campaignId: c.id })).toEqual({ seats: [], claimed: [] });
    // a single person's commitment has no guest seat
    const solo = await person();
    await commitToCampaign(solo, { campaignId: c.id });
    expect(
      await refusal(inviteFriend(solo, { campaignId: c.id, guestSlot: 1, email: "y@example.test" })),
    ).toBe(FRIEND_TEXTS.noGuests);
    // the admin's outbox never shows the claim link
    const outbox = await listOutboxForAdmin({ id: "admin", isAdmin: true });
    expect(JSON.stringify(outbox)).toContain("A seat for you");
    expect(JSON.stringify(outbox)).not.toContain(token);
  });

  it("inviting a seat again replaces its invitation: the old link stops working", async () => {
    const { c, ada } = await group(2);
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: "first@example.test" });
    const old = await linkSentTo("first@example.test");
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: "second@example.test" });
    const fresh = await linkSentTo("second@example.test");
    const cy = await person();
    expect(await claimView(cy, old)).toMatchObject({ state: "refused", message: FRIEND_TEXTS.revoked });
    expect(await refusal(claimSeat(cy, { token: old }))).toBe(FRIEND_TEXTS.revoked);
    expect(await claimView(cy, fresh)).toMatchObject({ state: "open" });
  });

  it("is rate-limited per person", async () => {
    const { c, ada } = await group(2);
    const prev = process.env.RATE_LIMIT_DISABLED;
    delete process.env.RATE_LIMIT_DISABLED;
    try {
      for (let i = 0; i < INVITE_RATE_LIMIT.limit; i++)
        await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: `f${i}@example.test` });
      expect(
        await refusal(inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: "late@example.test" })),
      ).toMatch(/^Too many invitations\. Try again in/);
      expect(await db.seatInvite.count({ where: { campaignId: c.id } })).toBe(INVITE_RATE_LIMIT.limit);
    } finally {
      if (prev !== undefined) process.env.RATE_LIMIT_DISABLED = prev;
    }
  });
});

describe("claiming a seat", () => {
  it("moves the seat into the friend's account and re-issues its ticket; counters unchanged", async () => {
    const { c, ada, groupId } = await group(3, 3);
    const creator = await db.user.findUniqueOrThrow({ where: { id: c.creatorId } });
    const door = { id: creator.id, email: creator.email, isAdmin: false };
    const before = await counters(c.id);
    expect(before).toMatchObject({ committedCount: 3, status: "charged" });
    const printed = await guestTicketsAt(ada.id, c.id);
    expect(printed).toHaveLength(2);
    const seat1 = await db.pledge.findFirstOrThrow({
      where: { campaignId: c.id, userId: ada.id, guestSlot: 1 },
    });
    const oldTicket = await db.ticket.findUniqueOrThrow({ where: { pledgeId: seat1.id } });
    const oldToken = await openTicketToken(oldTicket);

    await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: "bo@example.test" });
    const token = await linkSentTo("bo@example.test");
    expect(await claimView(null, token)).toMatchObject({ state: "signIn", campaignId: c.id });
    const bo = await person();
    expect(await claimView(bo, token)).toMatchObject({ state: "open", campaignId: c.id });
    expect(await claimSeat(bo, { token })).toEqual({ campaignId: c.id });

    const moved = await db.pledge.findUniqueOrThrow({ where: { id: seat1.id } });
    expect(moved).toMatchObject({ userId: bo.id, guestSlot: 0, groupId, standing: "in" });
    expect(await counters(c.id)).toEqual(before);
    // the old ticket no longer admits; the friend's new one does
    const newTicket = await db.ticket.findUniqueOrThrow({ where: { pledgeId: seat1.id } });
    expect(newTicket.id).toBe(oldTicket.id);
    expect(newTicket.tokenHash).not.toBe(oldTicket.tokenHash);
    expect(newTicket.code).not.toBe(oldTicket.code);
    expect(await ticketByToken(oldToken)).toBeNull();
    expect(await ticketByCode(c.id, oldTicket.code)).toBeNull();
    expect(await checkIn(door, c.id, { token: oldToken })).toMatchObject({ kind: "unknown" });
    const bosTicket = await holderTicketAt(bo.id, c.id);
    expect(bosTicket?.pledgeId).toBe(seat1.id);
    expect(await checkIn(door, c.id, { code: newTicket.code })).toMatchObject({ kind: "checked_in" });
    // the holder prints one guest ticket now; the friend sees their own commitment (a seat of their own)
    expect(await guestTicketsAt(ada.id, c.id)).toHaveLength(1);
    const bos = await getMyCommitment(bo, { campaignId: c.id });
    expect(bos?.pledgeId).toBe(seat1.id);
    expect(bos?.seats).toBeFalsy();
    expect(bos?.calendarUrl).toBeTruthy();
    expect((await listMyCommitments(bo)).map((m) => m.campaignId)).toContain(c.id);
    expect((await getMyCommitment(ada, { campaignId: c.id }))?.seats?.text).toBe("You and 1 guest");
    expect(await myInvites(ada, { campaignId: c.id })).toEqual({
      seats: [{ guestSlot: 2, invited: null }],
      claimed: ["bo@example.test"],
    });
    const managed = await listManagedPledges(c.id, { paid: false, cancelled: false });
    expect(managed.map((m) => m.seat).sort()).toEqual(["Claimed guest seat", "Guest 2", "Holds 2 seats"]);

    // claimed once: a second claim of the link (anyone's) is refused and changes nothing
    const cy = await person();
    expect(await claimView(cy, token)).toMatchObject({ state: "refused", message: FRIEND_TEXTS.claimed });
    expect(await refusal(claimSeat(cy, { token }))).toBe(FRIEND_TEXTS.claimed);
    expect(await refusal(claimSeat(bo, { token }))).toBe(FRIEND_TEXTS.claimed);
    expect((await db.pledge.findUniqueOrThrow({ where: { id: seat1.id } })).userId).toBe(bo.id);
  });

  it("two people claiming one link at once: exactly one gets the seat", async () => {
    const { c, ada } = await group(2);
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: "both@example.test" });
    const token = await linkSentTo("both@example.test");
    const [bo, cy] = [await person(), await person()];
    const before = await counters(c.id);
    const outcomes = await Promise.all([
      refusal(claimSeat(bo, { token })),
      refusal(claimSeat(cy, { token })),
    ]);
    expect(outcomes.filter((o) => o === "accepted")).toHaveLength(1);
    expect(outcomes.filter((o) => o === FRIEND_TEXTS.claimed)).toHaveLength(1);
    const seat = await db.pledge.findFirstOrThrow({
      where: { campaignId: c.id, groupId: { not: null }, guestSlot: 0, userId: { not: ada.id } },
    });
    expect([bo.id, cy.id]).toContain(seat.userId);
    expect(await counters(c.id)).toEqual(before);
  });

  it("a friend already committed to the event cannot claim: the seat stays with its holder", async () => {
    const { c, ada } = await group(2);
    const bo = await person();
    await commitToCampaign(bo, { campaignId: c.id });
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: bo.email });
    const token = await linkSentTo(bo.email);
    const said = FRIEND_TEXTS.alreadyCommitted("Ada Holder");
    expect(await claimView(bo, token)).toMatchObject({ state: "refused", message: said });
    expect(await refusal(claimSeat(bo, { token }))).toBe(said);
    const seat = await db.pledge.findFirstOrThrow({ where: { campaignId: c.id, guestSlot: 1 } });
    expect(seat.userId).toBe(ada.id);
    expect(await db.seatInvite.count({ where: { campaignId: c.id, claimedAt: { not: null } } })).toBe(0);
    // the holder cannot claim their own seat either
    expect(await refusal(claimSeat(ada, { token }))).toBe(FRIEND_TEXTS.own);
  });

  it("a hidden event's holder is not named on the link to a friend who may not see them", async () => {
    const c = await createCampaign({
      goal: 10,
      maxSeats: 3,
      attendeesAnonymous: true,
      identityRevelationType: "never",
    });
    const ada = await person("Ada Hidden");
    await commitToCampaign(ada, { campaignId: c.id, seats: 2 });
    const bo = await person();
    await commitToCampaign(bo, { campaignId: c.id });
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: bo.email });
    const view = await claimView(bo, await linkSentTo(bo.email));
    expect(JSON.stringify(view)).not.toContain("Ada Hidden");
    expect(view).toMatchObject({ message: FRIEND_TEXTS.alreadyCommitted("the person who invited you") });
  });

  it("an unknown, malformed or dropped seat's link says so plainly and changes nothing", async () => {
    const { c, ada } = await group(2);
    const bo = await person();
    expect(await claimView(bo, "nope")).toEqual({ state: "unknown", message: FRIEND_TEXTS.unknown });
    expect(await claimView(bo, "A".repeat(43))).toEqual({ state: "unknown", message: FRIEND_TEXTS.unknown });
    expect(await refusal(claimSeat(bo, { token: "A".repeat(43) }))).toBe(FRIEND_TEXTS.unknown);
    expect(await refusal(claimSeat(bo, { token: 42 }))).toBe(FRIEND_TEXTS.unknown);
    expect(await refusal(claimSeat(null, { token: "x" }))).toMatch(/sign in/i);
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: "gone@example.test" });
    const token = await linkSentTo("gone@example.test");
    await withdrawCommitment(ada, { campaignId: c.id, dropSeats: 1 });
    expect(await refusal(claimSeat(bo, { token }))).toBe(FRIEND_TEXTS.gone);
    expect(await getMyCommitment(bo, { campaignId: c.id })).toBeNull();
  });
});

describe("a claimed seat given up", () => {
  it("goes back to its holder at their lowest free guest slot, not withdrawn; counters unchanged", async () => {
    const { c, ada, groupId } = await group(3);
    const bo = await person();
    await nameAndClaim(ada, c.id, 1, "bo@example.test", bo);
    const seat = await db.pledge.findFirstOrThrow({ where: { campaignId: c.id, userId: bo.id } });
    const before = await counters(c.id);
    const r = await withdrawCommitment(bo, { campaignId: c.id });
    expect(r).toMatchObject({ committedCount: 3, refundCents: 0, droppedSeats: 0 });
    const back = await db.pledge.findUniqueOrThrow({ where: { id: seat.id } });
    expect(back).toMatchObject({ userId: ada.id, guestSlot: 1, groupId, standing: "in", withdrawnAt: null });
    expect(await counters(c.id)).toEqual(before);
    expect((await getMyCommitment(ada, { campaignId: c.id }))?.seats?.text).toBe("You and 2 guests");
    expect(await getMyCommitment(bo, { campaignId: c.id })).toBeNull();
    expect(await myInvites(ada, { campaignId: c.id })).toEqual({
      seats: [
        { guestSlot: 1, invited: null },
        { guestSlot: 2, invited: null },
      ],
      claimed: [],
    });
    // the seat may be named again (the claimed invitation is spent)
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: "cy@example.test" });
    // and the friend is free to commit on their own now
    await commitToCampaign(bo, { campaignId: c.id });
    expect(await counters(c.id)).toMatchObject({ committedCount: 4 });
  });

  it("is withdrawn like any once its holder's own commitment is gone", async () => {
    const { c, ada } = await group(2);
    const bo = await person();
    await nameAndClaim(ada, c.id, 1, "bo@example.test", bo);
    // the holder withdraws: their seats go; the claimed seat is the friend's and stays
    await withdrawCommitment(ada, { campaignId: c.id });
    expect(await counters(c.id)).toMatchObject({ committedCount: 1 });
    expect((await getMyCommitment(bo, { campaignId: c.id }))?.pledgeId).toBeTruthy();
    await withdrawCommitment(bo, { campaignId: c.id });
    expect(await counters(c.id)).toMatchObject({ committedCount: 0 });
    const seat = await db.pledge.findFirstOrThrow({ where: { campaignId: c.id, userId: bo.id } });
    expect(seat.standing).toBe("withdrawn");
  });
});

describe("privacy of named friends", () => {
  it("a hidden group reveals no invited email or friend's name to visitors or other members", async () => {
    const c = await createCampaign({
      goal: 10,
      maxSeats: 3,
      attendeesAnonymous: true,
      identityRevelationType: "never",
    });
    const ada = await person("Ada Private");
    await commitToCampaign(ada, { campaignId: c.id, seats: 3 });
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 1, email: "secret.friend@example.test" });
    await inviteFriend(ada, { campaignId: c.id, guestSlot: 2, email: "other.friend@example.test" });
    const bo = await person("Bo Secretfriend");
    await claimSeat(bo, { token: await linkSentTo("secret.friend@example.test") });
    const member = await person();
    await commitToCampaign(member, { campaignId: c.id });
    for (const who of [null, member]) {
      const shown = JSON.stringify([
        await listEventCommitments(c.id, who),
        who ? await myInvites(who, { campaignId: c.id }) : null,
        who ? await getMyCommitment(who, { campaignId: c.id }) : null,
      ]);
      for (const secret of [
        "secret.friend",
        "other.friend",
        "Bo Secretfriend",
        bo.email,
        "Ada Private",
        ada.email,
      ])
        expect(shown).not.toContain(secret);
    }
    // the holder sees only the addresses they typed, not the friend's account
    const hers = JSON.stringify([await myInvites(ada, { campaignId: c.id }), await listMyCommitments(ada)]);
    expect(hers).toContain("secret.friend@example.test");
    expect(hers).not.toContain(bo.email);
    expect(hers).not.toContain("Bo Secretfriend");
    // and the friend sees nothing of the holder's other invitation
    const his = JSON.stringify([await myInvites(bo, { campaignId: c.id }), await listMyCommitments(bo)]);
    expect(his).not.toContain("other.friend");
  });
});
