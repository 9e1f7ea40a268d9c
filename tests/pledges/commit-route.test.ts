import { afterAll, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import { COMMIT_MESSAGES } from "@/lib/access/pledge-policy";
import { createCampaign, createUser } from "@/tests/helpers/factories";
import { actAs, closeFingerprintPool, headersMock } from "@/tests/security/harness";

vi.mock("next/headers", () => headersMock);

const { POST } = await import("@/app/api/campaigns/[campaignId]/commit/route");

afterAll(closeFingerprintPool);

/** POST /api/campaigns/{id}/commit as the commit dialog sends it (components/commit/commit-request.ts). */
async function commit(campaignId: string, body: string, headers: Record<string, string> = {}) {
  const res = await POST(
    new Request(`http://localhost:3000/api/campaigns/${campaignId}/commit`, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body,
    }),
    { params: Promise.resolve({ campaignId }) },
  );
  const text = await res.clone().text();
  return {
    res,
    text,
    body: (await res.json()) as { ok: boolean; error?: string; data?: Record<string, unknown> },
  };
}

describe("the commit route (issue 35 item 3: the dialog's commit without a server action)", () => {
  it("commits the signed-in user to the event in the path and answers the dialog's result, private, with its length", async () => {
    const user = await createUser();
    const c = await createCampaign({ goal: 3 });
    const elsewhere = await createCampaign({ goal: 3 });
    actAs(user);
    // the event is the path's, whatever the body says
    const { res, text, body } = await commit(c.id, JSON.stringify({ campaignId: elsewhere.id }));
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(text)));
    expect(body).toMatchObject({
      ok: true,
      data: { campaignId: c.id, committedCount: 1, goal: 3, remaining: 2, crossed: false, free: true },
    });
    const pledge = await db.pledge.findFirstOrThrow({ where: { userId: user.id } });
    expect(pledge).toMatchObject({ id: body.data!.pledgeId, campaignId: c.id });
    expect(await db.pledge.count({ where: { campaignId: elsewhere.id } })).toBe(0);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: c.id } })).committedCount).toBe(1);
  });

  it("refuses with the dialog's messages and the refusal's status, writing nothing", async () => {
    const user = await createUser();
    const c = await createCampaign({ goal: 5 });
    actAs(null);
    expect(await commit(c.id, "{}")).toMatchObject({
      res: { status: 401 },
      body: { ok: false, error: COMMIT_MESSAGES.signedOut },
    });
    actAs(user);
    expect((await commit(c.id, "{}")).res.status).toBe(200);
    expect(await commit(c.id, "{}")).toMatchObject({
      res: { status: 409 },
      body: { ok: false, error: COMMIT_MESSAGES.alreadyCommitted },
    });
    expect(await commit("no-such-event", "{}")).toMatchObject({ res: { status: 400 } });
    expect(await commit(c.id, "{not json")).toMatchObject({
      res: { status: 400 },
      body: { error: { message: "The request body must be valid JSON." } },
    });
    // a personal threshold that is not a number: the field's message, for the dialog's box
    const bad = await commit(c.id, JSON.stringify({ minPeople: "many" }));
    expect(bad).toMatchObject({
      res: { status: 400 },
      body: { ok: false, fieldErrors: { minPeople: expect.any(String) } },
    });
    // another site's page cannot commit for the signed-in user
    const other = await createCampaign({ goal: 5 });
    expect((await commit(other.id, "{}", { origin: "https://evil.example" })).res.status).toBe(403);
    expect(await db.pledge.count({ where: { userId: user.id } })).toBe(1);
  });
});
