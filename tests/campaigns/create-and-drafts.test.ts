import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { createCampaign } from "@/lib/campaigns/service";
import { deleteDraft, saveDraft } from "@/lib/drafts/service";
import { listDrafts } from "@/lib/drafts/queries";
import { emptyCampaignForm } from "@/lib/campaigns/schema";
import { createUser } from "@/tests/helpers/factories";

const asViewer = (u: { id: string; email: string; name: string | null; isAdmin: boolean }) => ({
  id: u.id,
  email: u.email,
  name: u.name,
  isAdmin: u.isAdmin,
});
const inAWeek = () => new Date(Date.now() + 7 * 86400_000).toISOString();
const form = () => ({
  ...emptyCampaignForm,
  title: " Picnic in the park ",
  description: "Sandwiches, frisbee and sunshine for everyone.",
  goal: "12",
  deadline: inAWeek(),
  ticketPrice: "7.25",
});

describe("createCampaign", () => {
  it("stores a pending event with the price in cents and the creator's email", async () => {
    const user = asViewer(await createUser());
    const { id } = await createCampaign(user, form());
    const row = await db.campaign.findUniqueOrThrow({ where: { id } });
    expect(row).toMatchObject({
      title: "Picnic in the park",
      goal: 12,
      ticketPriceCents: 725,
      approvalStatus: "pending",
      status: "pending",
      creatorId: user.id,
      creatorEmail: user.email,
      pactType: "paction",
      attendeesAnonymous: true,
      identityRevelationType: "never",
    });
  });

  it("refuses invalid input with the field messages and writes nothing", async () => {
    const user = asViewer(await createUser());
    await expect(createCampaign(user, { ...form(), goal: "10001", title: "abc" })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      fieldErrors: { title: "Title must be at least 5 characters", goal: "Goal cannot exceed 10,000 people" },
    });
    await expect(createCampaign(user, "garbage")).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(createCampaign(null, form())).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    expect(await db.campaign.count({ where: { creatorId: user.id } })).toBe(0);
  });

  it("removes the draft it was created from, only if the creator owns it", async () => {
    const user = asViewer(await createUser());
    const other = asViewer(await createUser());
    const mine = await saveDraft(user, { ...emptyCampaignForm, title: "draft" });
    const theirs = await saveDraft(other, { ...emptyCampaignForm, title: "draft" });
    await createCampaign(user, form(), { draftId: mine.id });
    await createCampaign(user, form(), { draftId: theirs.id });
    expect(await db.campaignDraft.count({ where: { id: mine.id } })).toBe(0);
    expect(await db.campaignDraft.count({ where: { id: theirs.id } })).toBe(1);
  });
});

describe("drafts", () => {
  it("saves, updates, lists and deletes the owner's drafts", async () => {
    const user = asViewer(await createUser());
    const { id } = await saveDraft(user, {
      ...emptyCampaignForm,
      title: "First idea",
      goal: "5",
      ticketPrice: "3",
    });
    await saveDraft(user, {
      ...emptyCampaignForm,
      id,
      title: "Better idea",
      goal: "6",
      pactType: "crowdfund",
    });
    const drafts = await listDrafts(user.id);
    expect(drafts).toHaveLength(1);
    expect(drafts[0]).toMatchObject({
      id,
      title: "Better idea",
      goal: 6,
      pactType: "crowdfund",
      ticketPriceCents: null,
    });
    await deleteDraft(user, id);
    expect(await listDrafts(user.id)).toEqual([]);
  });

  it("refuses an empty draft with the SPEC message", async () => {
    const user = asViewer(await createUser());
    await expect(saveDraft(user, { ...emptyCampaignForm })).rejects.toMatchObject({
      message: "Please fill in some content before saving as draft.",
    });
    expect(await db.campaignDraft.count({ where: { creatorId: user.id } })).toBe(0);
  });

  it("never lets a user see, change or delete someone else's draft", async () => {
    const owner = asViewer(await createUser());
    const intruder = asViewer(await createUser());
    const { id } = await saveDraft(owner, { ...emptyCampaignForm, title: "Secret plan" });
    expect(await listDrafts(intruder.id)).toEqual([]);
    await expect(saveDraft(intruder, { ...emptyCampaignForm, id, title: "Hijacked" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(deleteDraft(intruder, id)).rejects.toMatchObject({ code: "NOT_FOUND" });
    const row = await db.campaignDraft.findUniqueOrThrow({ where: { id } });
    expect(row.title).toBe("Secret plan");
    expect(row.creatorId).toBe(owner.id);
  });
});

describe("create rate limit", () => {
  it("refuses the creation after the hourly limit with a 429-class error and writes nothing more", async () => {
    const { CREATE_LIMIT } = await import("@/lib/campaigns/service");
    const user = asViewer(await createUser());
    for (let i = 0; i < CREATE_LIMIT.limit; i++) await createCampaign(user, form());
    await expect(createCampaign(user, form())).rejects.toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringMatching(/try again in \d+ minutes?/),
    });
    expect(await db.campaign.count({ where: { creatorId: user.id } })).toBe(CREATE_LIMIT.limit);
    // Another user is not affected.
    await expect(createCampaign(asViewer(await createUser()), form())).resolves.toHaveProperty("id");
  });
});
