import { describe, expect, it } from "vitest";
import { getCampaignForViewer, organizerNameFor } from "@/lib/campaigns/queries";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

const asViewer = (u: { id: string; email: string; name: string | null }) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  isAdmin: false,
});

describe("the organizer box's display name (issue 34 item 6)", () => {
  it("goes with the email: to the organizer and committed backers, never to visitors or others", async () => {
    const organizer = await createUser({ name: "Olga Organizer" });
    const event = await createCampaign({ creatorId: organizer.id });
    const backer = await createUser();
    await createPledge(event.id, backer.id);
    const stranger = await createUser();

    const nameFor = async (viewer: ReturnType<typeof asViewer> | null) =>
      organizerNameFor((await getCampaignForViewer(event.id, viewer))!);
    expect(await nameFor(null)).toBeNull();
    expect(await nameFor(asViewer(stranger))).toBeNull();
    expect(await nameFor(asViewer(backer))).toBe("Olga Organizer");
    expect(await nameFor(asViewer(organizer))).toBe("Olga Organizer");
  });

  it("is null for an organizer without a display name (the email stands alone)", async () => {
    const organizer = await createUser({ name: null });
    const event = await createCampaign({ creatorId: organizer.id });
    expect(await organizerNameFor((await getCampaignForViewer(event.id, asViewer(organizer)))!)).toBeNull();
  });
});
