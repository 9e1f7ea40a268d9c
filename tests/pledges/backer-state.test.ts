import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { withdrawCommitment } from "@/lib/pledges/withdraw";
import { giveUpPlace } from "@/lib/pledges/give-up";
import { getMyCommitment, listMyCommitments } from "@/lib/pledges/mine";
import { getCommitPanel } from "@/lib/pledges/queries";
import { runCharging } from "@/lib/charging/service";
import { refundOwedPledges, refundPledge } from "@/lib/ledger/refunds";
import { receiptReference } from "@/lib/ledger/queries";
import { getGateway } from "@/lib/payments/gateway";
import { queueDerivedEmails } from "@/lib/derived-emails";
import { memberCampaignVersion } from "@/lib/cache/visitor-version";
import { conditionOffered, conditionRefusal, PERSONAL_THRESHOLD_TEXTS } from "@/lib/pledges/schema";
import { createCampaign, createUser } from "@/tests/helpers/factories";

// Issue 34 item 2: the backer's own state, told the same on every surface — a given-up place and its
// refund, a place held on a condition, the condition offered only where it means something, and one
// email per promotion.

type V = { id: string; email: string; name: string | null; isAdmin: boolean };
const person = async (name: string): Promise<V> => {
  const u = await createUser({ name });
  return { id: u.id, email: u.email, name: u.name, isAdmin: false };
};

async function demoCard(userId: string): Promise<string> {
  const id = `pm_demo_bs${Math.random().toString(16).slice(2, 14)}`;
  await db.demoPaymentMethod.create({
    data: { id, userId, brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, behavior: "ok" },
  });
  return id;
}

const commitPaid = async (c: { id: string }, v: V, minPeople?: number) =>
  commitToCampaign(v, { campaignId: c.id, paymentMethodId: await demoCard(v.id), minPeople });

const subjects = async (v: V) =>
  (await db.emailOutbox.findMany({ where: { toEmail: v.email }, orderBy: { createdAt: "asc" } })).map(
    (e) => e.subject,
  );

describe("a given-up paid place stays in My commitments with its refund", () => {
  it("waiting for the place to be taken, on its way once the taker paid, then refunded on a date; the backer is emailed once when the refund goes through; the promoted person gets one email", async () => {
    const organizer = await createUser();
    const c = await createCampaign({
      creatorId: organizer.id,
      goal: 2,
      capacity: 2,
      ticketPriceCents: 3500,
      deadline: new Date(Date.now() + 3 * 86_400_000),
      startsAt: new Date(Date.now() + 6 * 86_400_000),
      timeZone: "Europe/Paris",
      venue: "The Loft",
      area: "Le Marais",
      address: "77 Hidden Alley",
      addressPrivate: true,
    });
    const [a, b, w] = [await person("Ada"), await person("Bo"), await person("Wes")];
    await commitPaid(c, a);
    await commitPaid(c, b); // tips
    await runCharging(c.id);
    await queueDerivedEmails(); // the members' "Event Confirmed!"
    expect((await commitPaid(c, w)).waitlisted).toBe(true);

    // before: the holder sees the event's date, the attendee-only address, the amount, both badges and a readable receipt
    const before = (await listMyCommitments(a)).find((m) => m.campaignId === c.id)!;
    expect(before).toMatchObject({
      standing: "in",
      phase: { label: "Confirmed" },
      standingBadge: { label: "In" },
      date: { label: "Starts", zone: "Europe/Paris" },
      place: "The Loft, 77 Hidden Alley",
      amountCents: 3500,
      refund: null,
    });
    expect(before.date.text).toMatch(/CET|CEST|GMT\+1|GMT\+2/);
    expect(before.receipt).toMatch(/^PN-[0-9A-Z]{4}-[0-9A-Z]{4}$/);
    expect(JSON.stringify(before)).not.toContain("pi_");

    await giveUpPlace(a, { campaignId: c.id });
    const pledgeA = await db.pledge.findFirstOrThrow({ where: { campaignId: c.id, userId: a.id } });
    const listed = async () => (await listMyCommitments(a)).find((m) => m.pledgeId === pledgeA.id)!;
    // still listed: its standing's badge, not the event's ("Gave up place", never "Active"); the address is gone
    const gaveUp = await listed();
    expect(gaveUp).toMatchObject({
      standing: "gave_up",
      phase: { label: "Gave up place" },
      standingBadge: null,
      place: "The Loft, Le Marais",
      refund: {
        text: "Refund of $35.00 to Visa ·4242: waiting for your place to be taken",
        refundedAt: null,
      },
      receipt: receiptReference(pledgeA.id),
    });
    expect(gaveUp.stateText).toMatch(/^Gave up your place on .+$/);

    // the first in line took it and paid: the refund is on its way (the sweeper makes it)
    await runCharging(c.id);
    expect((await listed()).refund?.text).toBe("Refund of $35.00 to Visa ·4242: on its way");
    expect(await db.emailOutbox.count({ where: { dedupeKey: `refunded:${pledgeA.id}` } })).toBe(0);

    expect(await refundOwedPledges(c.id)).toBe(1);
    const done = await listed();
    const refundedAt = (await db.pledge.findUniqueOrThrow({ where: { id: pledgeA.id } })).refundedAt!;
    expect(done.refund).toEqual({
      text: "Refunded $35.00 to Visa ·4242",
      refundedAt: refundedAt.toISOString(),
    });
    expect(done.receipt).toBe(receiptReference(pledgeA.id));

    // the refund's email: queued once, by the transaction that recorded the refund — not again by a
    // second sweep nor by the provider's replay of the same refund
    expect(await refundOwedPledges(c.id)).toBe(0);
    const p = await db.pledge.findUniqueOrThrow({ where: { id: pledgeA.id } });
    expect(await refundPledge({ ...p, paymentIntentId: p.paymentIntentId! }, getGateway())).toBe(false);
    const mail = await db.emailOutbox.findMany({ where: { dedupeKey: `refunded:${pledgeA.id}` } });
    expect(mail).toHaveLength(1);
    expect(mail[0]).toMatchObject({ toEmail: a.email, subject: `Refunded: $35.00 for "${c.title}"` });
    expect(mail[0].text).toContain("We refunded $35.00 to your Visa ·4242 because you gave up your place at");

    // the promotion sent one accurate email, no stale "Event Confirmed!" after the charge
    await queueDerivedEmails();
    const toW = await subjects(w);
    expect(toW.filter((s) => s.startsWith("A place opened"))).toHaveLength(1);
    expect(toW.filter((s) => s.includes("Event Confirmed!"))).toEqual([]);
    // joining the waitlist, the promotion, and (issue 36) the door ticket once the place was paid
    expect(toW).toHaveLength(3);
    const ticket = await db.emailOutbox.findFirstOrThrow({
      where: { toEmail: w.email, subject: `Your ticket for "${c.title}"` },
    });
    const code = (await db.ticket.findFirstOrThrow({ where: { pledge: { userId: w.id, campaignId: c.id } } }))
      .code;
    expect(ticket.text).toContain(`Your ticket code is ${code.slice(0, 4)}-${code.slice(4)}`);
    expect(JSON.stringify(ticket.attachments)).toContain("ticket-qr");
    const promoted = await db.emailOutbox.findFirstOrThrow({
      where: { toEmail: w.email, subject: { startsWith: "A place opened" } },
    });
    expect(promoted.text).toContain("your card is being charged $35.00 now");
    expect(promoted.text).not.toContain("We'll email you when the payment goes through");
    // the members of the tip still had theirs, once
    expect((await subjects(b)).filter((s) => s.includes("Event Confirmed!"))).toHaveLength(1);
  });

  it("a free event: the promoted person is told once that their place is confirmed, not also 'Event Confirmed!'", async () => {
    const c = await createCampaign({ goal: 2, capacity: 2, deadline: new Date(Date.now() + 3 * 86_400_000) });
    const [a, b, w] = [await person("Ann"), await person("Bea"), await person("Wanda")];
    await commitToCampaign(a, { campaignId: c.id });
    await commitToCampaign(b, { campaignId: c.id }); // tips, confirmed at once
    await commitToCampaign(w, { campaignId: c.id }); // waits
    await giveUpPlace(a, { campaignId: c.id }); // w is promoted and confirmed at once
    await queueDerivedEmails();
    const toW = await subjects(w);
    expect(toW.filter((s) => s.startsWith("A place opened"))).toHaveLength(1);
    expect(toW.filter((s) => s.includes("Event Confirmed!"))).toEqual([]);
    expect(toW.filter((s) => s === `Your ticket for "${c.title}"`)).toHaveLength(1); // issue 36
    expect((await subjects(b)).filter((s) => s.includes("Event Confirmed!"))).toHaveLength(1);
    // the free giver is listed too, never charged, no refund line
    const mine = (await listMyCommitments(a)).find((m) => m.campaignId === c.id)!;
    expect(mine).toMatchObject({ standing: "gave_up", refund: null, receipt: null, amountCents: 0 });
    expect(mine.stateText).toMatch(/— never charged$/);
  });
});

describe("a conditional backer", () => {
  it("sees 'Counts when N are in' with the count now, follows the count both ways before the tip, and is emailed once: when the event goes ahead with them counted", async () => {
    const c = await createCampaign({ goal: 5, ticketPriceCents: 1000 });
    const [f1, f2, f3, f4, f5] = await Promise.all(["F1", "F2", "F3", "F4", "F5"].map(person));
    const cnd = await person("Cleo");
    await commitPaid(c, f1);
    const first = await commitPaid(c, cnd, 3);
    expect(first).toMatchObject({ member: false, minPeople: 3 });

    // not "You're in": her own panel and card say the condition and the count now, amber
    const panel = await getCommitPanel(c.id, cnd);
    expect(panel).toMatchObject({
      cta: "committed",
      condition: { minPeople: 3, text: "Counts when 3 are in · 1 is in now" },
    });
    expect(await getMyCommitment(cnd, { campaignId: c.id })).toMatchObject({
      standing: "conditional",
      stateText: "Counts when 3 are in · 1 is in now",
      tone: "amber",
      standingBadge: { label: "Not counted yet" },
    });
    // her page is rendered for her alone (the shared copy of those committed says "You're in")
    expect(await memberCampaignVersion(c.id, { userId: cnd.id, version: 0 })).toBeNull();
    const stranger = await person("Stranger"); // neither committed nor listed: a shared copy
    expect(await memberCampaignVersion(c.id, { userId: stranger.id, version: 0 })).not.toBeNull();
    // someone else's panel carries no condition
    expect((await getCommitPanel(c.id, f1))?.condition).toBeNull();

    await commitPaid(c, f2); // 3 in: she counts
    expect((await db.pledge.findFirstOrThrow({ where: { userId: cnd.id } })).standing).toBe("in");
    await withdrawCommitment(f2, { campaignId: c.id }); // 1 firm left: she is not counted again
    expect((await getCommitPanel(c.id, cnd))?.condition?.text).toBe("Counts when 3 are in · 1 is in now");
    await commitPaid(c, f3); // counted again
    await commitPaid(c, f4);
    const tip = await commitPaid(c, f5); // 5 in: the goal
    expect(tip).toMatchObject({ crossed: true, status: "funded" });
    await runCharging(c.id);
    await queueDerivedEmails();
    await queueDerivedEmails();

    const toCleo = await subjects(cnd);
    // her commit's email, then one "Event Confirmed!" — nothing at each count and uncount
    expect(toCleo).toHaveLength(2);
    expect(toCleo[0]).toBe(`You're in for "${c.title}" — once 3 are`);
    expect(toCleo[1]).toContain("Event Confirmed!");
    expect((await getCommitPanel(c.id, cnd))?.condition).toBeNull();
  });

  it("a free event: emailed once at the tip with them counted", async () => {
    const c = await createCampaign({ goal: 3 });
    const [f1, f2] = [await person("G1"), await person("G2")];
    const cnd = await person("Cato");
    await commitToCampaign(f1, { campaignId: c.id });
    await commitToCampaign(cnd, { campaignId: c.id, minPeople: 3 });
    await commitToCampaign(f2, { campaignId: c.id }); // 3 in with her: the tip
    await queueDerivedEmails();
    const toCato = await subjects(cnd);
    expect(toCato.filter((s) => s.includes("Event Confirmed!"))).toHaveLength(1);
    expect(toCato).toHaveLength(2);
  });
});

describe("a condition is offered only where it means something", () => {
  it("refused at or below the members now, and on an event already going ahead, with a clear message and nothing written", async () => {
    const c = await createCampaign({ goal: 10, ticketPriceCents: 500 });
    const people = await Promise.all(["H1", "H2", "H3", "H4"].map(person));
    for (const p of people) await commitPaid(c, p);
    const x = await person("Xia");
    for (const n of [2, 4])
      await expect(commitPaid(c, x, n)).rejects.toThrow(PERSONAL_THRESHOLD_TEXTS.atOrBelowMembers(4));
    expect(await db.pledge.count({ where: { userId: x.id } })).toBe(0);
    // the field error carries the same text for the dialog
    await expect(commitPaid(c, x, 4)).rejects.toMatchObject({
      fieldErrors: { minPeople: PERSONAL_THRESHOLD_TEXTS.atOrBelowMembers(4) },
    });
    // more than the members: a condition (with her, 5 are in: it holds now, and may stop holding before the tip)
    expect(await commitPaid(c, x, 5)).toMatchObject({ minPeople: 5, committedCount: 5 });

    // an event already going ahead takes no condition (it keeps accepting: a late commit)
    const going = await createCampaign({ goal: 1, ticketPriceCents: 500 });
    await db.campaign.update({ where: { id: going.id }, data: { acceptAfterThreshold: true } });
    await commitPaid(going, await person("J1")); // tips
    const y = await person("Yan");
    await expect(commitPaid(going, y, 50)).rejects.toThrow(PERSONAL_THRESHOLD_TEXTS.confirmed);
    expect(await db.pledge.count({ where: { userId: y.id } })).toBe(0);
    expect(await commitPaid(going, y)).toMatchObject({ late: true, member: true });
  });

  it("the dialog's rule is the server's", () => {
    const collecting = { status: "pending", committedCount: 6, capacity: null, crowdfund: false };
    expect(conditionRefusal(6, collecting)).toBe(PERSONAL_THRESHOLD_TEXTS.atOrBelowMembers(6));
    expect(conditionRefusal(7, collecting)).toBeNull();
    expect(conditionRefusal(1, collecting)).toBeNull(); // "at least 1" is no condition
    expect(conditionRefusal(8, { ...collecting, status: "funded" })).toBe(PERSONAL_THRESHOLD_TEXTS.confirmed);
    expect(conditionRefusal(12, { ...collecting, capacity: 10 })).toBe(
      PERSONAL_THRESHOLD_TEXTS.aboveCapacity(10),
    );
    expect(conditionOffered({ status: "pending", crowdfund: false })).toBe(true);
    expect(conditionOffered({ status: "charged", crowdfund: false })).toBe(false);
    expect(conditionOffered({ status: "pending", crowdfund: true })).toBe(false);
    expect(PERSONAL_THRESHOLD_TEXTS.atOrBelowMembers(6)).toBe(
      "6 people are in already, so a condition of 6 or fewer would hold at once. Choose more than 6, or commit without a condition.",
    );
  });

  it("a receipt reference is readable, the same every time, and one per pledge", () => {
    expect(receiptReference("pl_one")).toBe(receiptReference("pl_one"));
    expect(receiptReference("pl_one")).not.toBe(receiptReference("pl_two"));
    expect(receiptReference("pl_one")).toMatch(
      /^PN-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{4}-[0-9ABCDEFGHJKMNPQRSTVWXYZ]{4}$/,
    );
  });
});

describe("a commitment to a called-off event", () => {
  it("shows the event's Cancelled badge alone, never 'In' beside it", async () => {
    const organizer = await createUser();
    const c = await createCampaign({ creatorId: organizer.id, goal: 5 });
    const a = await person("Cleo");
    await commitToCampaign(a, { campaignId: c.id });
    expect((await listMyCommitments(a)).find((m) => m.campaignId === c.id)).toMatchObject({
      phase: { label: "Active" },
      standingBadge: { label: "In" },
    });
    await db.campaign.update({ where: { id: c.id }, data: { status: "cancelled", cancelledAt: new Date() } });
    expect((await listMyCommitments(a)).find((m) => m.campaignId === c.id)).toMatchObject({
      standing: "in",
      phase: { label: "Cancelled" },
      standingBadge: null,
    });
  });
});
