import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { EDIT_TEXTS, getEditView, updateCampaign } from "@/lib/campaigns/edit";
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
