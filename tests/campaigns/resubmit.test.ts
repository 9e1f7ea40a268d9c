import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { updateCampaign } from "@/lib/campaigns/edit";
import { getEditView } from "@/lib/campaigns/edit-view";
import { setApprovalStatus } from "@/lib/campaigns/service";
import { rejectionOf, RESUBMIT_TEXTS } from "@/lib/campaigns/resubmit";
import { needsPayoutSetup } from "@/lib/access/payable";
import { getManageView } from "@/lib/pledges/manage-queries";
import { createCampaign, createDemoPayoutAccount, createUser } from "@/tests/helpers/factories";

/** Issue 34 item 3: a rejected event's reason, "Edit and resubmit" (at most 3 times), the payouts notice. */
const DAY = 86_400_000;
const as = (u: { id: string; email: string; isAdmin?: boolean }) => ({
  id: u.id,
  email: u.email,
  name: null,
  isAdmin: u.isAdmin ?? false,
});
const refusal = (p: Promise<unknown>) =>
  p.then(
    () => "accepted",
    (e: Error) => e.message,
  );

async function formOf(organizer: { id: string; email: string }, campaignId: string, changes: object = {}) {
  const view = await getEditView(as(organizer), campaignId);
  if (!view) throw new Error("no edit view");
  return { ...view.values, ...changes };
}

describe("edit and resubmit a rejected event", () => {
  it("the organizer (only) sees the reason; each resubmit goes back to pending through the edit, logged; the 4th is refused and nothing changes", async () => {
    const admin = await createUser({ isAdmin: true });
    const organizer = await createUser();
    const stranger = await createUser();
    const campaign = await createCampaign({
      creatorId: organizer.id,
      deadline: new Date(Date.now() + 5 * DAY),
      startsAt: new Date(Date.now() + 9 * DAY),
    });
    const event = () => db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });

    // not rejected: saving with resubmit is refused, the edit rolled back
    expect(
      await refusal(
        updateCampaign(
          as(organizer),
          campaign.id,
          await formOf(organizer, campaign.id, { title: "Nope nope" }),
          {
            resubmit: true,
          },
        ),
      ),
    ).toBe(RESUBMIT_TEXTS.notRejected);
    expect((await event()).title).toBe(campaign.title);

    for (let round = 1; round <= 3; round++) {
      await setApprovalStatus(as(admin), {
        campaignId: campaign.id,
        approvalStatus: "rejected",
        reason: `Round ${round}: <add> a real venue`,
      });
      const rejection = await rejectionOf(await event(), as(organizer));
      expect(rejection).toMatchObject({
        reason: `Round ${round}: <add> a real venue`,
        resubmitsLeft: 4 - round,
      });
      expect(await rejectionOf(await event(), as(stranger))).toBeNull();
      expect(await rejectionOf(await event(), as(admin))).toBeNull();
      expect((await getEditView(as(organizer), campaign.id))?.rejection).toEqual({
        resubmitsLeft: 4 - round,
      });

      await updateCampaign(
        as(organizer),
        campaign.id,
        await formOf(organizer, campaign.id, { title: `Better title ${round}` }),
        { resubmit: true },
      );
      expect(await event()).toMatchObject({
        approvalStatus: "pending",
        resubmitCount: round,
        title: `Better title ${round}`,
      });
      expect(await rejectionOf(await event(), as(organizer))).toBeNull();
    }
    const logs = await db.moderationLog.findMany({
      where: { campaignId: campaign.id, actorId: organizer.id },
    });
    expect(logs.map((l) => [l.fromStatus, l.toStatus])).toEqual(Array(3).fill(["rejected", "pending"]));

    await setApprovalStatus(as(admin), {
      campaignId: campaign.id,
      approvalStatus: "rejected",
      reason: "Final",
    });
    expect(await rejectionOf(await event(), as(organizer))).toMatchObject({
      reason: "Final",
      resubmitsLeft: 0,
    });
    expect((await getEditView(as(organizer), campaign.id))?.rejection).toEqual({ resubmitsLeft: 0 });
    expect(
      await refusal(
        updateCampaign(
          as(organizer),
          campaign.id,
          await formOf(organizer, campaign.id, { title: "Fourth try" }),
          {
            resubmit: true,
          },
        ),
      ),
    ).toBe(RESUBMIT_TEXTS.exhausted);
    expect(await event()).toMatchObject({
      approvalStatus: "rejected",
      resubmitCount: 3,
      title: "Better title 3",
    });
    // a stranger cannot resubmit someone else's event
    expect(
      await refusal(
        updateCampaign(as(stranger), campaign.id, await formOf(organizer, campaign.id), { resubmit: true }),
      ),
    ).not.toBe("accepted");
  });
});

describe("a paid event goes live once payouts are set up", () => {
  it("its organizer is told on the manage page (and the event page's check) until the account is ready; free events and others never", async () => {
    const organizer = await createUser();
    const other = await createUser();
    const paid = await createCampaign({
      creatorId: organizer.id,
      ticketPriceCents: 1200,
      approvalStatus: "pending",
    });
    const free = await createCampaign({ creatorId: organizer.id, approvalStatus: "pending" });
    expect(await needsPayoutSetup(paid, organizer.id)).toBe(true);
    expect(await needsPayoutSetup(paid, other.id)).toBe(false);
    expect(await needsPayoutSetup(paid, null)).toBe(false);
    expect(await needsPayoutSetup(free, organizer.id)).toBe(false);
    expect((await getManageView(paid.id, as(organizer)))?.payoutsSetupNeeded).toBe(true);
    expect((await getManageView(free.id, as(organizer)))?.payoutsSetupNeeded).toBe(false);

    await createDemoPayoutAccount(organizer.id);
    expect(await needsPayoutSetup(paid, organizer.id)).toBe(false);
    expect((await getManageView(paid.id, as(organizer)))?.payoutsSetupNeeded).toBe(false);
  });
});
