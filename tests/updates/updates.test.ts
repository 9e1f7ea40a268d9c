import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { postUpdate } from "@/lib/updates/service";
import { getUpdatesView } from "@/lib/updates/queries";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

const v = (u: { id: string; isAdmin: boolean }) => ({ id: u.id, isAdmin: u.isAdmin });

describe("organizer updates", () => {
  it("stores the update and emails every committer who has not unsubscribed, once each", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id });
    const a = await createUser();
    const b = await createUser();
    const optedOut = await createUser();
    await db.user.update({ where: { id: optedOut.id }, data: { emailOptOut: true } });
    for (const u of [a, b, optedOut]) await createPledge(campaign.id, u.id);

    const r = await postUpdate(v(creator), {
      campaignId: campaign.id,
      text: "  Venue moved to the east lawn.  ",
    });
    expect(r.emailed).toBe(2);
    expect(await db.campaignUpdate.findUniqueOrThrow({ where: { id: r.id } })).toMatchObject({
      text: "Venue moved to the east lawn.",
      authorId: creator.id,
    });
    const emails = await db.emailOutbox.findMany({ where: { dedupeKey: { startsWith: `update:${r.id}:` } } });
    expect(emails.map((e) => e.toEmail).sort()).toEqual([a.email, b.email].sort());
    expect(emails[0].subject).toBe(`Update from the organizer of "${campaign.title}"`);
    expect(emails[0].text).toContain("Venue moved to the east lawn.");
    expect(emails[0].text).toContain("/unsubscribe?token=");

    const view = (await getUpdatesView(campaign.id, null))!;
    expect(view.updates.map((u) => u.text)).toEqual(["Venue moved to the east lawn."]);
    expect(view.canPost).toBe(false);
  });

  it("allows at most 3 updates per event in 24 hours, also when posted concurrently", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id });
    const results = await Promise.allSettled(
      Array.from({ length: 5 }, (_, i) =>
        postUpdate(v(creator), { campaignId: campaign.id, text: `Update ${i}` }),
      ),
    );
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(3);
    const refused = results.filter((r) => r.status === "rejected") as PromiseRejectedResult[];
    expect(refused.map((r) => r.reason.code)).toEqual(["RATE_LIMITED", "RATE_LIMITED"]);
    expect(refused[0].reason.message).toBe("You can post at most 3 updates a day. Please try again later.");
    expect(await db.campaignUpdate.count({ where: { campaignId: campaign.id } })).toBe(3);
    // A day later the window has moved on.
    const later = new Date(Date.now() + 24 * 3600_000 + 60_000);
    await postUpdate(v(creator), { campaignId: campaign.id, text: "Next day" }, later);
    expect((await getUpdatesView(campaign.id, v(creator), later))!.remainingToday).toBe(2);
  });

  it("refuses everyone but the organizer, and bad input, changing nothing", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id });
    const other = await createUser();
    const admin = await createUser({ isAdmin: true });
    await expect(postUpdate(null, { campaignId: campaign.id, text: "x" })).rejects.toMatchObject({
      code: "UNAUTHENTICATED",
    });
    await expect(postUpdate(v(other), { campaignId: campaign.id, text: "x" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(postUpdate(v(admin), { campaignId: campaign.id, text: "x" })).rejects.toMatchObject({
      code: "FORBIDDEN",
    });
    await expect(postUpdate(v(creator), { campaignId: campaign.id, text: "   " })).rejects.toMatchObject({
      code: "BAD_REQUEST",
      message: "Please write your update first.",
    });
    await expect(
      postUpdate(v(creator), { campaignId: campaign.id, text: "y".repeat(2001) }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    await expect(postUpdate(v(creator), { campaignId: "nosuchcampaign1", text: "x" })).rejects.toMatchObject({
      code: "NOT_FOUND",
    });
    await expect(
      postUpdate(v(creator), { campaignId: 5 as unknown as string, text: "x" }),
    ).rejects.toMatchObject({ code: "BAD_REQUEST" });
    expect(await db.campaignUpdate.count({ where: { campaignId: campaign.id } })).toBe(0);
  });
});
