import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { updateCampaign } from "@/lib/campaigns/edit";
import { getEditView } from "@/lib/campaigns/edit-view";
import { createCampaign as createEvent } from "@/lib/campaigns/service";
import { DEPOSIT_TEXTS } from "@/lib/campaigns/deposit-fields";
import { emptyCampaignForm } from "@/lib/campaigns/schema";
import { commitToCampaign } from "@/lib/pledges/service";
import { commitReceivedEmail } from "@/lib/campaigns/emails";
import { emailCampaignSelect } from "@/lib/campaigns/notifications";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

/* Issue 36 item 3: the show-up deposit as the organizer sets it (create, edit) and as a backer commits. */

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

async function eventWith(overrides: Parameters<typeof createCampaign>[0] = {}) {
  const organizer = await createUser();
  const campaign = await createCampaign({
    creatorId: organizer.id,
    goal: 10,
    ticketPriceCents: 2000,
    deadline: new Date(Date.now() + 5 * DAY),
    startsAt: new Date(Date.now() + 9 * DAY),
    timeZone: "America/New_York",
    venue: "Old Hall",
    ...overrides,
  });
  return { organizer, campaign };
}

async function formOf(organizer: { id: string; email: string }, campaignId: string, changes: object = {}) {
  const view = await getEditView(viewer(organizer), campaignId);
  if (!view) throw new Error("no edit view");
  return { ...view.values, ...changes };
}
const stored = (id: string) =>
  db.campaign.findUniqueOrThrow({ where: { id }, select: { depositCents: true, depositGraceHours: true } });

describe("setting a show-up deposit", () => {
  it("creating: stored in cents with its grace; refused without a place, and nothing is saved", async () => {
    const organizer = viewer(await createUser());
    const form = {
      ...emptyCampaignForm,
      title: "Board game night",
      description: "Bring your favourite games and meet new people.",
      goal: "12",
      deadline: new Date(Date.now() + 7 * DAY).toISOString(),
      startsAt: new Date(Date.now() + 8 * DAY).toISOString(),
      address: "2 6th Ave",
      depositEnabled: true,
      depositAmount: "15",
      depositGraceHours: "36",
    };
    await expect(createEvent(organizer, { ...form, address: "" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      fieldErrors: { depositEnabled: DEPOSIT_TEXTS.notAllowed },
    });
    expect(await db.campaign.count({ where: { creatorId: organizer.id } })).toBe(0);
    const { id } = await createEvent(organizer, { ...form, maxSeats: "3" });
    expect(await stored(id)).toEqual({ depositCents: 1500, depositGraceHours: 36 });
    // issue 37: an event with a deposit takes groups too, up to what the organizer typed
    expect((await db.campaign.findUniqueOrThrow({ where: { id } })).maxSeats).toBe(3);
  });

  it("editing: changes while nobody has committed, then fixed (read-only, and refused by the server)", async () => {
    const { organizer, campaign } = await eventWith();
    const values = await formOf(organizer, campaign.id, {
      depositEnabled: true,
      depositAmount: "10",
      depositGraceHours: "24",
    });
    await updateCampaign(viewer(organizer), campaign.id, { ...values, maxSeats: "5" });
    expect(await stored(campaign.id)).toEqual({ depositCents: 1000, depositGraceHours: 24 });
    // issue 37: groups stay on with the deposit (stored as typed)
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).maxSeats).toBe(5);
    // the edit form reads it back as it was typed
    const back = await formOf(organizer, campaign.id);
    expect(back).toMatchObject({ depositEnabled: true, depositAmount: "10", depositGraceHours: "24" });

    await createPledge(campaign.id, undefined, { paymentMethodId: "pm", amountCents: 2000 });
    const view = await getEditView(viewer(organizer), campaign.id);
    expect(view?.moneyLocked).toBe(true);
    const now = await formOf(organizer, campaign.id);
    for (const change of [{ depositAmount: "25" }, { depositGraceHours: "48" }, { depositEnabled: false }])
      expect(await refusal(updateCampaign(viewer(organizer), campaign.id, { ...now, ...change }))).toBe(
        DEPOSIT_TEXTS.locked,
      );
    // the event keeps its in-person place while it takes a deposit
    expect(
      await refusal(
        updateCampaign(viewer(organizer), campaign.id, {
          ...now,
          venue: "",
          onlineUrl: "https://meet.example.com/x",
        }),
      ),
    ).toBe(DEPOSIT_TEXTS.notAllowed);
    expect(await stored(campaign.id)).toEqual({ depositCents: 1000, depositGraceHours: 24 });
    // an edit that leaves the deposit as it is goes through
    await updateCampaign(viewer(organizer), campaign.id, { ...now, title: "Board game night, again" });
    expect(await stored(campaign.id)).toEqual({ depositCents: 1000, depositGraceHours: 24 });
  });

  it("editing: refused on an event without a start time, and on a crowdfund", async () => {
    const { organizer, campaign } = await eventWith({ startsAt: null });
    const deposit = { depositEnabled: true, depositAmount: "10", depositGraceHours: "24" };
    const values = await formOf(organizer, campaign.id, deposit);
    expect(await refusal(updateCampaign(viewer(organizer), campaign.id, values))).toBe(
      DEPOSIT_TEXTS.notAllowed,
    );
    const cf = await eventWith({ pactType: "crowdfund", ticketPriceCents: 0 });
    const cfValues = await formOf(cf.organizer, cf.campaign.id, deposit);
    expect(await refusal(updateCampaign(viewer(cf.organizer), cf.campaign.id, cfValues))).toBe(
      DEPOSIT_TEXTS.crowdfund,
    );
    expect(await stored(campaign.id)).toMatchObject({ depositCents: 0 });
    expect(await stored(cf.campaign.id)).toMatchObject({ depositCents: 0 });
  });
});

describe("committing to a free event with a deposit", () => {
  it("asks for a card: a commit without one is refused and nothing is written", async () => {
    const { campaign } = await eventWith({ ticketPriceCents: 0 });
    await db.campaign.update({ where: { id: campaign.id }, data: { depositCents: 1000 } });
    const backer = viewer(await createUser());
    await expect(commitToCampaign(backer, { campaignId: campaign.id })).rejects.toThrow(
      "Please save a payment method",
    );
    expect(await db.pledge.count({ where: { campaignId: campaign.id } })).toBe(0);
  });

  it("the confirmation email says the deposit before the tip", async () => {
    const { campaign } = await eventWith({ ticketPriceCents: 0 });
    await db.campaign.update({ where: { id: campaign.id }, data: { depositCents: 1000 } });
    const c = await db.campaign.findUniqueOrThrow({
      where: { id: campaign.id },
      select: emailCampaignSelect,
    });
    const mail = commitReceivedEmail(c, { userId: "u", email: "u@example.test" }, "p1");
    expect(mail.text).toContain("Free ticket + $10.00 show-up deposit, refunded when you check in.");
    expect(mail.text).toContain("You're charged $10.00 only if");
    expect(mail.text).toContain("kept 24 hours after the event ends");
    // issue 37: a group's commitment email says the group's payment and the group's deposits
    const group = commitReceivedEmail(c, { userId: "u", email: "u@example.test" }, "p2", 0, 3);
    expect(group.text).toContain(
      "3 free tickets + 3 × $10.00 show-up deposits = $30.00, each deposit refunded when its person checks in.",
    );
    expect(group.text).toContain("You're charged $30.00 for 3 people ($10.00 each) only if");
  });
});
