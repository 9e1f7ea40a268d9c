import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { EDIT_TEXTS, updateCampaign } from "@/lib/campaigns/edit";
import { getEditView } from "@/lib/campaigns/edit-view";
import { formatInZone } from "@/lib/campaigns/event-time";
import { REFUND_BONUS_TEXTS } from "@/lib/campaigns/texts";
import { escapeHtml } from "@/lib/email/render";
import { createCampaign, createPledge, createUser, createDemoPayoutAccount } from "@/tests/helpers/factories";

const DAY = 24 * 3600_000;
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

async function eventWithBacker(overrides: Parameters<typeof createCampaign>[0] = {}) {
  const organizer = await createUser();
  const backer = await createUser();
  const campaign = await createCampaign({
    creatorId: organizer.id,
    goal: 10,
    ticketPriceCents: 900,
    deadline: new Date(Date.now() + 5 * DAY),
    startsAt: new Date(Date.now() + 9 * DAY),
    timeZone: "America/New_York",
    venue: "Old Hall",
    ...overrides,
  });
  return { organizer, backer, campaign };
}

/** The form's values as the edit page would send them, with `changes`. */
async function formOf(organizer: { id: string; email: string }, campaignId: string, changes: object = {}) {
  const view = await getEditView(viewer(organizer), campaignId);
  if (!view) throw new Error("no edit view");
  return { ...view.values, ...changes };
}

describe("editing an event (issue 17 item 2)", () => {
  it("a new place moves the calendar entry and emails everyone who committed, once", async () => {
    const { organizer, backer, campaign } = await eventWithBacker();
    await createPledge(campaign.id, backer.id, { paymentMethodId: "pm", amountCents: 900 });
    const values = await formOf(organizer, campaign.id, { venue: "New Hall", address: "9 Elm St" });
    const { emailed } = await updateCampaign(viewer(organizer), campaign.id, values);
    expect(emailed).toBe(1);
    const row = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(row).toMatchObject({ venue: "New Hall", address: "9 Elm St", calendarSequence: 1 });
    // the times went through the form as wall clocks in the event's zone and came back the same
    expect(row.startsAt?.getTime()).toBe(campaign.startsAt?.getTime());
    expect(row.deadline.getTime()).toBe(campaign.deadline.getTime());
    const [mail] = await db.emailOutbox.findMany({
      where: { dedupeKey: { startsWith: `changed:${campaign.id}:` } },
    });
    expect(mail.toEmail).toBe(backer.email);
    expect(mail.text).toContain("New Hall, 9 Elm St");
    const ics = (mail.attachments as Array<{ content: string }>)[0].content;
    expect(ics).toContain(`UID:campaign-${campaign.id}@pactnexus`);
    expect(ics).toContain("SEQUENCE:1"); // stored 1 + TENTATIVE 0: above the first entry's 0
    expect(ics).toContain("LOCATION:New Hall\\, 9 Elm St");

    // a title change alone moves nothing and emails nobody
    const again = await updateCampaign(viewer(organizer), campaign.id, {
      ...values,
      title: "A better title here",
    });
    expect(again.emailed).toBe(0);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).calendarSequence).toBe(1);
  });

  it("refuses strangers before reading their input, and changes nothing", async () => {
    const { organizer, campaign } = await eventWithBacker();
    const stranger = await createUser();
    const values = await formOf(organizer, campaign.id, { title: "Hijacked!!" });
    expect(await refusal(updateCampaign(viewer(stranger), campaign.id, values))).toMatch(/permission/);
    expect(await refusal(updateCampaign(viewer(stranger), campaign.id, { title: "" }))).toMatch(/permission/);
    expect(await refusal(updateCampaign(null, campaign.id, values))).toBe("Please sign in first.");
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).title).toBe(campaign.title);
  });

  it("fixes goal and price after the first commitment; the deadline only moves later, within the rules", async () => {
    const { organizer, backer, campaign } = await eventWithBacker();
    const values = await formOf(organizer, campaign.id);
    // before anyone commits the goal may change
    await updateCampaign(viewer(organizer), campaign.id, { ...values, goal: "12" });
    await createPledge(campaign.id, backer.id, { paymentMethodId: "pm", amountCents: 900 });
    const now = await formOf(organizer, campaign.id);
    expect(now.goal).toBe("12");
    expect(await refusal(updateCampaign(viewer(organizer), campaign.id, { ...now, goal: "20" }))).toBe(
      EDIT_TEXTS.moneyLocked,
    );
    expect(await refusal(updateCampaign(viewer(organizer), campaign.id, { ...now, ticketPrice: "5" }))).toBe(
      EDIT_TEXTS.moneyLocked,
    );
    const earlier = new Date(campaign.deadline.getTime() - DAY).toISOString();
    expect(await refusal(updateCampaign(viewer(organizer), campaign.id, { ...now, deadline: earlier }))).toBe(
      EDIT_TEXTS.deadlineEarlier,
    );
    const pastStart = new Date(Date.now() + 10 * DAY).toISOString();
    expect(
      await refusal(updateCampaign(viewer(organizer), campaign.id, { ...now, deadline: pastStart })),
    ).toBe("The deadline cannot be after the event starts");
    const later = new Date(campaign.deadline.getTime() + DAY).toISOString();
    await updateCampaign(viewer(organizer), campaign.id, { ...now, deadline: later });
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).deadline.toISOString()).toBe(
      later,
    );
  });

  it("a confirmed event's deadline is fixed", async () => {
    const { organizer, campaign } = await eventWithBacker({ status: "charged" });
    const values = await formOf(organizer, campaign.id);
    const later = new Date(campaign.deadline.getTime() + DAY).toISOString();
    expect(
      await refusal(updateCampaign(viewer(organizer), campaign.id, { ...values, deadline: later })),
    ).toBe(EDIT_TEXTS.deadlineLocked);
  });

  it("an approved free event turned paid asks for payouts first (issue 23: no paid event goes live unpaid)", async () => {
    const { organizer, campaign } = await eventWithBacker({
      ticketPriceCents: 0,
      approvalStatus: "approved",
    });
    const values = await formOf(organizer, campaign.id, { ticketPrice: "15.00" });
    expect(await refusal(updateCampaign(viewer(organizer), campaign.id, values))).toBe(
      EDIT_TEXTS.payoutsFirst,
    );
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).ticketPriceCents).toBe(0);
    await createDemoPayoutAccount(organizer.id);
    await updateCampaign(viewer(organizer), campaign.id, values);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).ticketPriceCents).toBe(1500);
  });
});

/*
 * Issue 31 item 4: backers agreed to "charged only if N commit by <date>". A later deadline is
 * emailed to everyone who committed or is waiting, with both dates, and all extensions together stop
 * 90 days after the deadline the event was created with (or at the start, if sooner).
 */
describe("extending the deadline (issue 31)", () => {
  const ZONE = "America/New_York";
  const movedMails = (campaignId: string) =>
    db.emailOutbox.findMany({
      where: { dedupeKey: { startsWith: `deadline-moved:${campaignId}:` } },
      orderBy: { createdAt: "asc" },
    });

  it("emails every committer and everyone waiting the old and the new deadline; the result counts them", async () => {
    const { organizer, backer, campaign } = await eventWithBacker({
      startsAt: new Date(Date.now() + 200 * DAY),
      address: "12 Hidden Lane",
      addressPrivate: true,
      area: "Midtown",
    });
    await createPledge(campaign.id, backer.id, { paymentMethodId: "pm", amountCents: 900 });
    const waiting = await createUser();
    const w = await createPledge(campaign.id, waiting.id, { paymentMethodId: "pm2", amountCents: 900 });
    await db.pledge.update({ where: { id: w.id }, data: { waitlistedAt: new Date() } });
    const gone = await createUser();
    const g = await createPledge(campaign.id, gone.id, { paymentMethodId: "pm3", amountCents: 900 });
    await db.pledge.update({ where: { id: g.id }, data: { withdrawnAt: new Date() } });

    const later = new Date(campaign.deadline.getTime() + 30 * DAY);
    const values = await formOf(organizer, campaign.id, { deadline: later.toISOString() });
    const result = await updateCampaign(viewer(organizer), campaign.id, values);

    const mails = await movedMails(campaign.id);
    expect(result.emailed).toBe(2);
    expect(mails.map((m) => m.toEmail).sort()).toEqual([backer.email, waiting.email].sort());
    const dates = `moved its deadline from ${formatInZone(campaign.deadline, ZONE)} to ${formatInZone(later, ZONE)}.`;
    const toBacker = mails.find((m) => m.toEmail === backer.email)!;
    const toWaiting = mails.find((m) => m.toEmail === waiting.email)!;
    for (const m of [toBacker, toWaiting]) {
      expect(m.subject).toBe(`New deadline for "${campaign.title}"`);
      expect(m.text).toContain(dates);
      expect(m.html).toContain(escapeHtml(dates));
      expect(m.text).not.toContain("12 Hidden Lane"); // the waiting may not see the attendee-only address
    }
    expect(toBacker.text).toContain(
      "Your card will be charged $9.00 only if 10 people commit by the new deadline. Otherwise nobody pays.",
    );
    expect(toBacker.text).toContain(
      "you may withdraw from the event page until the goal is reached; nothing has been charged",
    );
    expect(toWaiting.text).toContain("you can leave the waitlist at any time from the event page");
    // the deadline is not the calendar entry: no date-or-place email, no calendar move
    expect(
      await db.emailOutbox.count({ where: { dedupeKey: { startsWith: `changed:${campaign.id}:` } } }),
    ).toBe(0);
    const row = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(row.deadline.getTime()).toBe(later.getTime());
    expect(row.calendarSequence).toBe(0);

    // saving again without a new deadline emails nobody
    expect((await updateCampaign(viewer(organizer), campaign.id, values)).emailed).toBe(0);
    expect(await movedMails(campaign.id)).toHaveLength(2);
  });

  it("a later deadline on an event offering the early go-ahead repeats the go-ahead in the email", async () => {
    const { organizer, backer, campaign } = await eventWithBacker({
      startsAt: new Date(Date.now() + 200 * DAY),
    });
    await db.campaign.update({ where: { id: campaign.id }, data: { earlyGoAhead: true } });
    await createPledge(campaign.id, backer.id, { paymentMethodId: "pm", amountCents: 900 });
    const later = new Date(campaign.deadline.getTime() + 30 * DAY);
    const values = await formOf(organizer, campaign.id, { deadline: later.toISOString() });
    await updateCampaign(viewer(organizer), campaign.id, values);
    const [mail] = await movedMails(campaign.id);
    expect(mail.text).toContain(
      "Otherwise nobody pays. The organizer may go ahead from 8 people (80% of the goal). If they do, you're charged $9.00 at once, as when the goal is met.",
    );
  });

  it("stops 90 days after the original deadline however many extensions: past it is refused and changes nothing", async () => {
    const { organizer, backer, campaign } = await eventWithBacker({
      startsAt: new Date(Date.now() + 320 * DAY),
    });
    await createPledge(campaign.id, backer.id, { paymentMethodId: "pm", amountCents: 900 });
    const original = campaign.deadline;
    const at = (days: number) => new Date(original.getTime() + days * DAY);
    // the deadline the event was created with is kept (filled on insert, whoever creates the event)
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).originalDeadline).toEqual(
      original,
    );
    const capped = EDIT_TEXTS.deadlineCapped(formatInZone(at(90), ZONE), formatInZone(original, ZONE));
    const move = async (to: Date) =>
      refusal(
        updateCampaign(
          viewer(organizer),
          campaign.id,
          await formOf(organizer, campaign.id, { deadline: to.toISOString() }),
        ),
      );

    // the case: one extension of 300 days
    expect(await move(at(300))).toBe(capped);
    expect(await move(at(60))).toBe("accepted");
    const view = await getEditView(viewer(organizer), campaign.id);
    expect(view?.latestDeadline.text).toBe(formatInZone(at(90), ZONE));
    expect(view?.latestDeadline.original).toBe(formatInZone(original, ZONE));
    // a second extension cannot add up past the cap
    expect(await move(new Date(at(90).getTime() + 60_000))).toBe(capped);
    const row = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(row.deadline).toEqual(at(60));
    expect(row.originalDeadline).toEqual(original);
    expect(await movedMails(campaign.id)).toHaveLength(1);
    // up to the cap itself
    expect(await move(at(90))).toBe("accepted");
    const mails = await movedMails(campaign.id);
    expect(mails).toHaveLength(2);
    expect(mails[1].text).toContain(`from ${formatInZone(at(60), ZONE)} to ${formatInZone(at(90), ZONE)}`);
  });

  it("the form shows the start as the latest deadline when it comes sooner than the cap", async () => {
    const { organizer, campaign } = await eventWithBacker({ startsAt: new Date(Date.now() + 20 * DAY) });
    const view = await getEditView(viewer(organizer), campaign.id);
    expect(view?.latestDeadline.text).toBe(formatInZone(campaign.startsAt!, ZONE));
  });

  it("a new place and a later deadline in one save: each email once per person, the result counts people", async () => {
    const { organizer, backer, campaign } = await eventWithBacker();
    await createPledge(campaign.id, backer.id, { paymentMethodId: "pm", amountCents: 900 });
    const later = new Date(campaign.deadline.getTime() + DAY);
    const values = await formOf(organizer, campaign.id, { venue: "New Hall", deadline: later.toISOString() });
    expect((await updateCampaign(viewer(organizer), campaign.id, values)).emailed).toBe(1);
    const mails = await db.emailOutbox.findMany({ where: { toEmail: backer.email } });
    expect(mails.map((m) => m.dedupeKey.split(":")[0]).sort()).toEqual(["changed", "deadline-moved"]);
  });

  it("a later deadline on an event nobody has committed to emails nobody", async () => {
    const { organizer, campaign } = await eventWithBacker();
    const later = new Date(campaign.deadline.getTime() + 2 * DAY);
    const { emailed } = await updateCampaign(
      viewer(organizer),
      campaign.id,
      await formOf(organizer, campaign.id, { deadline: later.toISOString() }),
    );
    expect(emailed).toBe(0);
    expect(await movedMails(campaign.id)).toHaveLength(0);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).deadline).toEqual(later);
  });

  it("before anyone commits nobody agreed to a date: no 90-day cap, and the saved deadline is the one the cap counts from", async () => {
    const { organizer, backer, campaign } = await eventWithBacker({
      startsAt: new Date(Date.now() + 320 * DAY),
    });
    const at = (days: number) => new Date(campaign.deadline.getTime() + days * DAY);
    const before = await getEditView(viewer(organizer), campaign.id);
    expect(before?.latestDeadline.original).toBeNull();
    const move = async (to: Date) =>
      refusal(
        updateCampaign(
          viewer(organizer),
          campaign.id,
          await formOf(organizer, campaign.id, { deadline: to.toISOString() }),
        ),
      );
    expect(await move(at(200))).toBe("accepted");
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).originalDeadline).toEqual(
      at(200),
    );
    // then someone commits: the cap counts from the deadline they agreed to
    await createPledge(campaign.id, backer.id, { paymentMethodId: "pm", amountCents: 900 });
    const capped = EDIT_TEXTS.deadlineCapped(formatInZone(at(290), ZONE), formatInZone(at(200), ZONE));
    expect(await move(at(291))).toBe(capped);
    expect(await move(at(290))).toBe("accepted");
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).originalDeadline).toEqual(
      at(200),
    );
  });
});

/* Issue 31 item 6: the refund bonus is the organizer's own promise, on paid events only, 1–20%. */
describe("the refund bonus on the edit form (issue 31)", () => {
  const bonusOf = async (id: string) =>
    (await db.campaign.findUniqueOrThrow({ where: { id } })).refundBonusPercentage;

  it("may be set on a paid event before anyone commits, 1 to 20%, then is fixed", async () => {
    const { organizer, backer, campaign } = await eventWithBacker();
    const save = async (changes: object) =>
      refusal(updateCampaign(viewer(organizer), campaign.id, await formOf(organizer, campaign.id, changes)));
    expect(await save({ refundBonusEnabled: true, refundBonusPercentage: "21" })).toBe(
      REFUND_BONUS_TEXTS.range,
    );
    expect(await bonusOf(campaign.id)).toBe(0);
    expect(await save({ refundBonusEnabled: true, refundBonusPercentage: "20" })).toBe("accepted");
    expect(await bonusOf(campaign.id)).toBe(20);
    // turning it free while the bonus stands is refused
    expect(await save({ ticketPrice: "" })).toBe(REFUND_BONUS_TEXTS.paidOnly);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).ticketPriceCents).toBe(900);

    await createPledge(campaign.id, backer.id, { paymentMethodId: "pm", amountCents: 900 });
    expect(await save({ refundBonusPercentage: "5" })).toBe(EDIT_TEXTS.bonusLocked);
    expect(await save({ refundBonusEnabled: false })).toBe(EDIT_TEXTS.bonusLocked);
    expect(await bonusOf(campaign.id)).toBe(20);
    // other changes still save, and the bonus stays
    expect(await save({ title: "A renamed event" })).toBe("accepted");
    expect(await bonusOf(campaign.id)).toBe(20);
  });

  it("is refused on a free event", async () => {
    const { organizer, campaign } = await eventWithBacker({ ticketPriceCents: 0 });
    const values = await formOf(organizer, campaign.id, {
      refundBonusEnabled: true,
      refundBonusPercentage: "10",
    });
    expect(await refusal(updateCampaign(viewer(organizer), campaign.id, values))).toBe(
      REFUND_BONUS_TEXTS.paidOnly,
    );
    expect(await bonusOf(campaign.id)).toBe(0);
  });
});
