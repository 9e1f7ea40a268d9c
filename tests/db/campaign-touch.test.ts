import { describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { createCampaign, createPledge, createUser } from "../helpers/factories";

// The campaign's "updatedAt" is the version its cached pages are keyed by (lib/cache/visitor-version):
// triggers move it on every change of its pledges, comments and updates. Issue 35 item 3: a statement
// that already updated the campaign row in this transaction (a commit's counters) is not followed by
// a second UPDATE of the same row — the version still moves, once.

const stamp = async (id: string) =>
  (await db.campaign.findUniqueOrThrow({ where: { id }, select: { updatedAt: true } })).updatedAt.getTime();

/** Campaign row updates so far as this backend counts them (pending counts: compare two readings in one transaction). */
const campaignUpdates = async (tx: Pick<typeof db, "$queryRaw">) =>
  (
    await tx.$queryRaw<{ n: number }[]>`
      SELECT n_tup_upd::int AS n FROM pg_stat_xact_user_tables WHERE relname = 'Campaign'`
  )[0]!.n;

const viewerOf = (u: { id: string; email: string; name: string | null }) => ({ ...u, isAdmin: false });

describe("the campaign's version (updatedAt)", () => {
  it("a commit moves it, updating the campaign row once", async () => {
    const campaign = await createCampaign({ goal: 50 });
    const user = await createUser();
    const before = await stamp(campaign.id);
    await commitToCampaign(viewerOf(user), { campaignId: campaign.id });
    expect(await stamp(campaign.id)).toBeGreaterThan(before);

    // the commit's one statement (lib/events/commit) inside a transaction that counts its row updates
    const other = await createUser();
    const updates = await db.$transaction(async (tx) => {
      const n0 = await campaignUpdates(tx);
      const [{ version }] = await tx.$queryRaw<{ version: string }[]>`
        SELECT xmin::text AS version FROM "Campaign" WHERE id = ${campaign.id}`;
      const { commit } = await import("@/lib/events/commit");
      const row = await commit(
        tx,
        {
          campaignId: campaign.id,
          pledgeId: `ctouch${Date.now().toString(36)}${Math.random().toString(36).slice(2, 10)}`,
          userId: other.id,
          amount: 1,
          amountCents: 0,
          contributor: "O.",
          card: null,
          paymentMethod: "Not specified",
          minPeople: null,
          waitlisted: false,
          member: true,
          committedCount: 2,
          raisedCents: 0,
          now: new Date(),
        },
        { version, joinUpTo: null, email: null },
      );
      expect(row).toMatchObject({ locked: true });
      return (await campaignUpdates(tx)) - n0;
    });
    expect(updates).toBe(1);
  });

  it("a pledge, comment or update changed on its own still moves it (the trigger touches the row)", async () => {
    const campaign = await createCampaign({ goal: 50 });
    const pledge = await createPledge(campaign.id);
    let last = await stamp(campaign.id);
    const moved = async () => {
      const now = await stamp(campaign.id);
      expect(now).toBeGreaterThan(last);
      last = now;
    };
    await db.$executeRaw`UPDATE "Pledge" SET "cardBrand" = 'visa' WHERE id = ${pledge.id}`;
    await moved();
    const user = await createUser();
    await db.comment.create({
      data: { campaignId: campaign.id, authorId: user.id, text: "Looking forward to it" },
    });
    await moved();
    // in a transaction that touched the row in a savepoint only, the pledge's change touches it again
    await db.$transaction(async (tx) => {
      const n0 = await campaignUpdates(tx);
      await tx.$executeRaw`SAVEPOINT s`;
      await tx.$executeRaw`UPDATE "Campaign" SET title = title WHERE id = ${campaign.id}`;
      await tx.$executeRaw`RELEASE SAVEPOINT s`;
      await tx.$executeRaw`UPDATE "Pledge" SET "cardBrand" = 'amex' WHERE id = ${pledge.id}`;
      expect((await campaignUpdates(tx)) - n0).toBe(2);
    });
    await moved();
    await db.$executeRaw`DELETE FROM "Pledge" WHERE id = ${pledge.id}`;
    await moved();
  });
});
