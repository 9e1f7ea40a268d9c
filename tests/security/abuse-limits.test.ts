import { afterAll, afterEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { hashPassword } from "@/lib/auth/password";
import { verifyPasswordSignIn, SIGN_IN_FAILS_PER_EMAIL, SIGN_UPS_PER_IP } from "@/lib/auth/service";
import { COMMIT_RATE_LIMIT } from "@/lib/pledges/service";
import { COMMENT_RATE_LIMIT } from "@/lib/comments/schema";
import { UPDATES_PER_DAY } from "@/lib/updates/schema";
import { consume } from "@/lib/rate-limit/service";
import { createCampaign, createUser } from "@/tests/helpers/factories";
import { actAs, closeFingerprintPool, headersMock, setRequestHeaders } from "@/tests/security/harness";

vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn(), updateTag: vi.fn() }));
vi.mock("next/headers", () => headersMock);

const { signUpAction } = await import("@/app/profile/actions");
const commitRoute = (await import("@/app/api/campaigns/[campaignId]/commit/route")).POST;
const { postCommentAction } = await import("@/app/campaign/[campaignId]/comment-actions");
const { postUpdateAction } = await import("@/app/campaign/[campaignId]/update-actions");

/** A commit as the commit dialog sends it (POST /api/campaigns/{id}/commit); its answer's body. */
async function commitToCampaign({ campaignId }: { campaignId: string }) {
  const res = await commitRoute(
    new Request(`http://localhost:3000/api/campaigns/${campaignId}/commit`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{}",
    }),
    { params: Promise.resolve({ campaignId }) },
  );
  return res.json();
}

afterEach(() => vi.unstubAllEnvs());
afterAll(closeFingerprintPool);

/** Abuse limits live in PostgreSQL (table RateLimitHit, or counted rows) so they hold across app instances. */
describe("abuse limits", () => {
  it("sign-up: 10 accounts per client IP an hour, then refused with nothing created", async () => {
    setRequestHeaders({ "x-pactnexus-client-ip": "198.51.100.23" });
    for (let i = 0; i < SIGN_UPS_PER_IP; i++) {
      expect(
        await signUpAction({ email: `spam${i}@example.test`, password: "long enough pass 1" }),
      ).toMatchObject({ ok: true });
    }
    const users = await db.user.count();
    const refused = await signUpAction({ email: "spam-more@example.test", password: "long enough pass 1" });
    expect(refused).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^Too many accounts created from this network\. Try again in \d+ minutes?\.$/,
      ),
    });
    expect(await db.user.count()).toBe(users);
    setRequestHeaders({ "x-pactnexus-client-ip": "198.51.100.24" });
    expect(
      await signUpAction({ email: "elsewhere@example.test", password: "long enough pass 1" }),
    ).toMatchObject({ ok: true });
  });

  it("sign-in: 5 failed attempts per email in 15 minutes, then even the right password is refused", async () => {
    const user = await createUser({ passwordHash: await hashPassword("the right one 9") });
    for (let i = 0; i < SIGN_IN_FAILS_PER_EMAIL; i++) {
      await expect(
        verifyPasswordSignIn({ email: user.email, password: `wrong guess ${i}` }),
      ).rejects.toMatchObject({ code: "UNAUTHENTICATED" });
    }
    await expect(
      verifyPasswordSignIn({ email: user.email, password: "the right one 9" }),
    ).rejects.toMatchObject({
      code: "RATE_LIMITED",
      message: expect.stringMatching(/^Too many attempts\. Try again in \d+ minutes?\.$/),
    });
  });

  it(`commit: ${COMMIT_RATE_LIMIT.limit} attempts per user a minute; the next is refused and writes no pledge; others are unaffected`, async () => {
    const user = await createUser();
    const campaigns = await Promise.all(
      Array.from({ length: COMMIT_RATE_LIMIT.limit + 1 }, () => createCampaign({ goal: 100 })),
    );
    actAs(user);
    for (const c of campaigns.slice(0, COMMIT_RATE_LIMIT.limit)) {
      expect(await commitToCampaign({ campaignId: c.id })).toMatchObject({ ok: true });
    }
    const last = campaigns[COMMIT_RATE_LIMIT.limit];
    expect(await commitToCampaign({ campaignId: last.id })).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^You're committing too quickly\. Please wait \d+ seconds? and try again\.$/,
      ),
    });
    expect(await db.pledge.count({ where: { userId: user.id } })).toBe(COMMIT_RATE_LIMIT.limit);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: last.id } })).committedCount).toBe(0);

    const other = await createUser();
    actAs(other);
    expect(await commitToCampaign({ campaignId: last.id })).toMatchObject({ ok: true });
  });

  it("commit: RATE_LIMIT_DISABLED=true (benchmarks) lifts the limit", async () => {
    vi.stubEnv("RATE_LIMIT_DISABLED", "true");
    const user = await createUser();
    const campaign = await createCampaign({ goal: 100 });
    actAs(user);
    expect(await commitToCampaign({ campaignId: campaign.id })).toMatchObject({ ok: true });
    for (let i = 0; i < COMMIT_RATE_LIMIT.limit + 2; i++) {
      expect(await commitToCampaign({ campaignId: campaign.id })).toEqual({
        ok: false,
        error: "You have already committed to this event",
      });
    }
  });

  it("consume: concurrent hits on one key never slip past the limit; the refusal says when to retry", async () => {
    const key = `test:concurrent:${Date.now()}:${Math.random()}`;
    const outcomes = await Promise.allSettled(
      Array.from({ length: 12 }, () => consume({ key, limit: 5, windowMs: 60_000 }, (ms) => `wait ${ms}`)),
    );
    const refused = outcomes.filter((o) => o.status === "rejected") as PromiseRejectedResult[];
    expect(outcomes.length - refused.length).toBe(5);
    expect(await db.rateLimitHit.count({ where: { key } })).toBe(5);
    for (const r of refused) {
      expect((r.reason as Error).message).toMatch(/^wait \d+$/);
      const ms = Number((r.reason as Error).message.slice(5));
      expect(ms).toBeGreaterThan(50_000);
      expect(ms).toBeLessThanOrEqual(60_000);
    }
  });

  it(`comment: ${COMMENT_RATE_LIMIT.limit} per user a minute, then refused with nothing stored`, async () => {
    const user = await createUser();
    const campaign = await createCampaign();
    actAs(user);
    for (let i = 0; i < COMMENT_RATE_LIMIT.limit; i++) {
      expect(await postCommentAction({ campaignId: campaign.id, text: `comment ${i}` })).toMatchObject({
        ok: true,
      });
    }
    expect(await postCommentAction({ campaignId: campaign.id, text: "one too many" })).toEqual({
      ok: false,
      error: expect.stringMatching(
        /^You're commenting too quickly\. Please wait \d+ seconds? and try again\.$/,
      ),
    });
    expect(await db.comment.count({ where: { campaignId: campaign.id } })).toBe(COMMENT_RATE_LIMIT.limit);
  });

  it(`update posting: ${UPDATES_PER_DAY} per event in 24 hours, then refused with nothing stored or emailed`, async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id });
    actAs(creator);
    for (let i = 0; i < UPDATES_PER_DAY; i++) {
      expect(await postUpdateAction({ campaignId: campaign.id, text: `update ${i}` })).toMatchObject({
        ok: true,
      });
    }
    const emails = await db.emailOutbox.count();
    expect(await postUpdateAction({ campaignId: campaign.id, text: "one too many" })).toEqual({
      ok: false,
      error: `You can post at most ${UPDATES_PER_DAY} updates a day. Please try again later.`,
    });
    expect(await db.campaignUpdate.count({ where: { campaignId: campaign.id } })).toBe(UPDATES_PER_DAY);
    expect(await db.emailOutbox.count()).toBe(emails);
  });
});
