import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { postUpdate } from "@/lib/updates/service";
import { updateCampaign } from "@/lib/campaigns/edit";
import { getEditView } from "@/lib/campaigns/edit-view";
import { ACTION_REFUSED } from "@/lib/events/actions";
import { createCampaign, createUser } from "@/tests/helpers/factories";

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

/** issue 34: what the page no longer offers on a called-off event, the mutations refuse too. */
describe("Edit and Post update follow the event's state (lib/events/actions.ts)", () => {
  it("a cancelled or expired event takes no update and no edit, and nothing changes", async () => {
    for (const status of ["cancelled", "expired"] as const) {
      const organizer = await createUser();
      const campaign = await createCampaign({
        creatorId: organizer.id,
        startsAt: new Date(Date.now() + 9 * 86400_000),
      });
      const values = (await getEditView(viewer(organizer), campaign.id))!.values;
      await db.campaign.update({ where: { id: campaign.id }, data: { status } });

      expect(
        await refusal(postUpdate(viewer(organizer), { campaignId: campaign.id, text: "Still on?" })),
      ).toBe(ACTION_REFUSED.postUpdate);
      expect(await db.campaignUpdate.count({ where: { campaignId: campaign.id } })).toBe(0);
      expect(
        await refusal(
          updateCampaign(viewer(organizer), campaign.id, { ...values, title: "A new title here" }),
        ),
      ).toBe(ACTION_REFUSED.edit);
      expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).title).toBe(
        campaign.title,
      );
    }
  });

  it("a collecting event takes both", async () => {
    const organizer = await createUser();
    const campaign = await createCampaign({
      creatorId: organizer.id,
      startsAt: new Date(Date.now() + 9 * 86400_000),
    });
    const values = (await getEditView(viewer(organizer), campaign.id))!.values;
    expect(
      await refusal(postUpdate(viewer(organizer), { campaignId: campaign.id, text: "See you there" })),
    ).toBe("accepted");
    expect(
      await refusal(updateCampaign(viewer(organizer), campaign.id, { ...values, title: "A new title here" })),
    ).toBe("accepted");
  });
});
