import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { listMyCommitments, getMyCommitment } from "@/lib/pledges/mine";
import { depositRosterOf } from "@/lib/pledges/deposits";
import { getCommitmentsCsv } from "@/lib/pledges/commitments-csv";
import { getPayoutsCsv, getPayoutsView } from "@/lib/payouts/queries";
import { refundOwedDeposits } from "@/lib/ledger/deposits";
import { issueTickets } from "@/lib/tickets/service";
import { checkIn } from "@/lib/tickets/check-in";
import { excuseDeposit } from "@/lib/pledges/excuse";
import { demoGateway } from "@/lib/payments/demo-gateway";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";
import { depositEvent, depositPlace } from "@/tests/pledges/deposit-places";

// Issue 36 item 3: the show-up deposit on the people surfaces — My commitments, the organizer's
// Deposits section and the CSV — all from lib/events/deposit's rule.

const viewerOf = (u: { id: string; email: string; name: string | null }, isAdmin = false) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  isAdmin,
});

/** The cells of a CSV line (every cell is quoted). */
const cells = (line: string) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]);

async function codeOf(pledgeId: string) {
  return (await db.ticket.findUniqueOrThrow({ where: { pledgeId } })).code;
}

describe("the show-up deposit on My commitments", () => {
  it("held (with when it is kept), refunded after a check-in, kept after the grace, refunding once excused", async () => {
    const organizer = await createUser({ name: "Olga Organizer" });
    const ada = await createUser({ name: "Ada Lovelace" });
    // one backer at four deposit events: checked in, held, excused (refund not through yet), past the grace
    const checked = await depositEvent({ creatorId: organizer.id });
    const held = await depositEvent({ creatorId: organizer.id });
    const excused = await depositEvent({ creatorId: organizer.id });
    const past = await depositEvent({ creatorId: organizer.id, startedHoursAgo: 30 });
    const plain = await createCampaign({ creatorId: organizer.id, ticketPriceCents: 1500 });
    const pCheck = await depositPlace(checked.id, ada.id);
    const pHeld = await depositPlace(held.id, ada.id);
    const pExcused = await depositPlace(excused.id, ada.id);
    const pPast = await depositPlace(past.id, ada.id);
    const pPlain = await createPledge(plain.id, ada.id, { amountCents: 1500 });

    await issueTickets(db, checked.id);
    const answer = await checkIn(viewerOf(organizer), checked.id, { code: await codeOf(pCheck.id) });
    expect(answer).toMatchObject({ kind: "checked_in", depositCents: 1000 });
    await refundOwedDeposits({ pledgeId: pCheck.id, gateway: demoGateway() });
    // excused, the provider not asked yet: owed back, not through
    await db.pledge.update({ where: { id: pExcused.id }, data: { depositExcusedAt: new Date() } });

    const mine = new Map((await listMyCommitments(viewerOf(ada))).map((m) => [m.pledgeId, m]));
    expect(mine.get(pCheck.id)!.deposit).toMatchObject({
      state: "refunded",
      text: "$10.00 deposit refunded",
      keptAt: null,
    });
    const keptAt = new Date(held.endsAt!.getTime() + 24 * 3_600_000).toISOString();
    expect(mine.get(pHeld.id)!.deposit).toEqual({
      state: "held",
      text: "$10.00 deposit held until you check in",
      keptAt,
      keptAtLabel: "Kept if you have not checked in by",
    });
    expect(mine.get(pExcused.id)!.deposit).toMatchObject({
      state: "refunding",
      text: "$10.00 deposit being refunded",
    });
    expect(mine.get(pPast.id)!.deposit).toMatchObject({
      state: "kept",
      text: "$10.00 deposit kept: you did not check in",
      keptAt: null,
    });
    expect(mine.get(pPlain.id)!.deposit).toBeNull();
    // the event page's card reads the same
    expect((await getMyCommitment(viewerOf(ada), { campaignId: held.id }))!.deposit).toEqual(
      mine.get(pHeld.id)!.deposit,
    );
  });

  it("a deposit not charged yet is announced on a standing commitment only; none after a withdrawal", async () => {
    const ada = await createUser();
    const open = await depositEvent();
    await db.campaign.update({ where: { id: open.id }, data: { status: "pending", fundedAt: null } });
    const p = await createPledge(open.id, ada.id, { amountCents: 2000, paymentMethodId: "pm_x" });
    const [m] = await listMyCommitments(viewerOf(ada));
    expect(m.deposit).toMatchObject({
      state: "none",
      text: "$10.00 show-up deposit, charged if the event goes ahead and refunded when you check in",
    });
    await db.pledge.update({ where: { id: p.id }, data: { withdrawnAt: new Date() } });
    const [after] = await listMyCommitments(viewerOf(ada));
    expect(after.deposit).toBeNull();
  });
});

describe("the organizer's deposits: the roster, the excuse, the CSV", () => {
  it("counts held, refunded and kept by the ledger's words; lists who has not checked in; excuses once", async () => {
    const organizer = await createUser({ name: "Olga Organizer" });
    const c = await depositEvent({ creatorId: organizer.id });
    const [a, b, d] = [await depositPlace(c.id), await depositPlace(c.id), await depositPlace(c.id)];
    await issueTickets(db, c.id);
    await checkIn(viewerOf(organizer), c.id, { code: await codeOf(a.id) });
    await refundOwedDeposits({ pledgeId: a.id, gateway: demoGateway() });

    const roster = (await depositRosterOf(viewerOf(organizer), c.id))!;
    expect(roster).toMatchObject({ cents: 1000, open: true, counts: { held: 2, refunded: 1, kept: 0 } });
    expect(roster.notCheckedIn.map((r) => r.pledgeId).sort()).toEqual([b.id, d.id].sort());
    const nb = (await db.pledge.findUniqueOrThrow({ where: { id: b.id } })).attendeeNumber;
    expect(roster.notCheckedIn.find((r) => r.pledgeId === b.id)).toMatchObject({
      label: `Attendee #${nb}`,
      state: "held",
      excusable: true,
    });
    // nobody else sees it: a member, an admin, a visitor, another organizer
    const member = await db.user.findUniqueOrThrow({ where: { id: b.userId } });
    const admin = await createUser();
    for (const who of [viewerOf(member), viewerOf(admin, true), null]) {
      expect(await depositRosterOf(who, c.id)).toBeNull();
    }

    await excuseDeposit(viewerOf(organizer), b.id, { gateway: demoGateway() });
    const after = (await depositRosterOf(viewerOf(organizer), c.id))!;
    expect(after.counts).toEqual({ held: 1, refunded: 2, kept: 0 });
    expect(after.notCheckedIn.find((r) => r.pledgeId === b.id)).toMatchObject({
      state: "refunded",
      excusable: false,
    });

    const csv = (await getCommitmentsCsv(c.id, viewerOf(organizer)))!.csv.trim().split("\r\n");
    const col = cells(csv[0]).indexOf("Deposit");
    expect(col).toBeGreaterThan(0);
    const byEmail = async (pledgeId: string) =>
      (await db.pledge.findUniqueOrThrow({ where: { id: pledgeId }, include: { user: true } })).user.email;
    const cellOf = async (pledgeId: string) => {
      const email = await byEmail(pledgeId);
      return cells(csv.find((l) => l.includes(`"${email}"`))!)[col];
    };
    expect(await cellOf(a.id)).toBe("refunded");
    expect(await cellOf(b.id)).toBe("refunded");
    expect(await cellOf(d.id)).toBe("held");
  });

  it("after the grace: kept, nobody excusable; an event without a deposit has no roster and a — column", async () => {
    const organizer = await createUser();
    const c = await depositEvent({ creatorId: organizer.id, startedHoursAgo: 30 });
    await depositPlace(c.id);
    const roster = (await depositRosterOf(viewerOf(organizer), c.id))!;
    expect(roster).toMatchObject({ open: false, counts: { held: 0, refunded: 0, kept: 1 } });
    expect(roster.notCheckedIn[0]).toMatchObject({ state: "kept", excusable: false });

    const plain = await createCampaign({ creatorId: organizer.id });
    await createPledge(plain.id);
    expect(await depositRosterOf(viewerOf(organizer), plain.id)).toBeNull();
    const csv = (await getCommitmentsCsv(plain.id, viewerOf(organizer)))!.csv.trim().split("\r\n");
    const col = cells(csv[0]).indexOf("Deposit");
    expect(cells(csv[1])[col]).toBe("—");
  });
});

describe("the organizer's /payouts: deposit lines per event", () => {
  it("says what is held and until when, what was kept and the fee on it, in the page's view and the CSV", async () => {
    const organizer = await createUser();
    const c = await depositEvent({ creatorId: organizer.id });
    await depositPlace(c.id);
    await depositPlace(c.id);
    const past = await depositEvent({ creatorId: organizer.id, startedHoursAgo: 30 });
    await depositPlace(past.id);
    const view = await getPayoutsView(organizer);
    const held = view.events.find((e) => e.campaignId === c.id)!;
    const keptAt = new Date(c.endsAt!.getTime() + 24 * 3_600_000).toISOString();
    expect(held.deposit).toEqual({ cents: 1000, keptAt });
    expect(held.ledger).toMatchObject({ depositHeldCents: 2000, depositKeptCents: 0 });
    const kept = view.events.find((e) => e.campaignId === past.id)!;
    expect(kept.ledger).toMatchObject({ depositHeldCents: 0, depositKeptCents: 1000, depositKeptCount: 1 });

    const rows = (await getPayoutsCsv(organizer)).trim().split("\r\n").map(cells);
    const col = (name: string) => rows[0].indexOf(name);
    const heldRow = rows.find((r) => r[0] === c.title)!;
    expect(heldRow[col("Deposits held (USD)")]).toBe("20.00");
    expect(heldRow[col("Deposits held until (UTC)")]).toBe(keptAt);
    const keptRow = rows.find((r) => r[0] === past.title)!;
    expect(keptRow[col("Deposits kept (USD)")]).toBe("10.00");
    expect(keptRow[col("Platform fee on kept deposits (USD)")]).toBe(
      (kept.ledger.depositFeeCents / 100).toFixed(2),
    );
    expect(keptRow[col("Deposits held until (UTC)")]).toBe("");
  });
});
