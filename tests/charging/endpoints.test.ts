import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/access/viewer";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

// Route handlers resolve the viewer from the session; tests choose who is asking.
let viewer: Viewer | null = null;
vi.mock("@/lib/access/viewer", () => ({
  getViewer: async () => viewer,
  requireUser: async () => viewer,
}));

const { POST: checkAndCharge } = await import("@/app/api/check-and-charge/route");
const { POST: chargeAttendees } = await import("@/app/api/charge-attendees/route");
const { POST: createSetupIntent } = await import("@/app/api/create-setup-intent/route");
const { POST: confirmSetup } = await import("@/app/api/demo-payments/confirm-setup/route");

const post = (body: unknown, ip = "198.51.100.1") =>
  new Request("http://test/api", {
    method: "POST",
    headers: { "content-type": "application/json", "x-pactnexus-client-ip": ip },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const asViewer = (u: { id: string; email: string; name: string | null; isAdmin: boolean }) => {
  viewer = { id: u.id, email: u.email, name: u.name, isAdmin: u.isAdmin };
};

/** Saves a demo card for `user` through the same endpoints the card form uses. */
async function saveDemoCard(
  user: Awaited<ReturnType<typeof createUser>>,
  cardNumber = "4242 4242 4242 4242",
) {
  asViewer(user);
  const { clientSecret } = await (await createSetupIntent(post({ email: user.email }))).json();
  const res = await confirmSetup(
    post({ clientSecret, cardNumber, expMonth: "12", expYear: "34", cvc: "123" }),
  );
  return { res, body: await res.json() };
}

async function fundedDemoCampaign(n: number, cards: (i: number) => string = () => "4242424242424242") {
  const creator = await createUser();
  const campaign = await createCampaign({
    creatorId: creator.id,
    goal: n,
    ticketPriceCents: 1500,
    status: "pending",
  });
  const pledges = [];
  for (let i = 0; i < n; i++) {
    const user = await createUser();
    const { body } = await saveDemoCard(user, cards(i));
    pledges.push(
      await createPledge(campaign.id, user.id, {
        paymentMethodId: body.setupIntent.payment_method,
        amountCents: 1500,
      }),
    );
  }
  return { creator, campaign, pledges };
}

beforeEach(() => {
  viewer = null;
});

/** Demo payments recorded for these pledges. */
async function intentsFor(pledgeIds: string[]) {
  const all = await db.demoPaymentIntent.findMany();
  return all.filter((pi) => pledgeIds.includes((pi.metadata as { pledgeId: string }).pledgeId));
}

describe("demo card saving (POST /api/create-setup-intent, /api/demo-payments/confirm-setup)", () => {
  it("asks a signed-out visitor to sign in", async () => {
    const res = await createSetupIntent(post({ email: "x@example.test" }));
    expect(res.status).toBe(401);
    expect((await res.json()).error.message).toBe("Please sign in to commit to this event");
  });

  it("saves a test card like Stripe and stores only brand, last 4, expiry and a token", async () => {
    const user = await createUser();
    const { res, body } = await saveDemoCard(user);
    expect(res.status).toBe(200);
    expect(body.setupIntent).toMatchObject({
      status: "succeeded",
      payment_method: expect.stringMatching(/^pm_demo_/),
      id: expect.stringMatching(/^seti_demo_/),
    });
    const pm = await db.demoPaymentMethod.findUniqueOrThrow({
      where: { id: body.setupIntent.payment_method },
    });
    expect(pm).toMatchObject({
      userId: user.id,
      brand: "visa",
      last4: "4242",
      expMonth: 12,
      expYear: 2034,
      behavior: "ok",
    });
    expect(JSON.stringify(pm)).not.toContain("4242424242424242");
  });

  it("gives Stripe's messages for bad and declined cards", async () => {
    const user = await createUser();
    const cases: [Record<string, string>, number, string][] = [
      [{ cardNumber: "4000 0000 0000 0002" }, 402, "Your card was declined."],
      [{ cardNumber: "4242 4242 4242 4241" }, 400, "Your card number is incorrect."],
      [{ cardNumber: "4242 4242" }, 400, "Your card number is incomplete."],
      [{ expMonth: "" }, 400, "Your card's expiration date is incomplete."],
      [{ expMonth: "01", expYear: "20" }, 400, "Your card's expiration year is in the past."],
      [{ cvc: "1" }, 400, "Your card's security code is incomplete."],
      // issue 31: a Luhn-valid number that is not a published test card (a real card's shape) is refused
      [
        { cardNumber: "4111 1111 1111 1111" },
        400,
        "Demo payments take test card numbers only, such as 4242 4242 4242 4242. Never enter a real card here.",
      ],
      [
        { cardNumber: "5425 2334 3010 9903" },
        400,
        "Demo payments take test card numbers only, such as 4242 4242 4242 4242. Never enter a real card here.",
      ],
    ];
    asViewer(user);
    for (const [override, status, message] of cases) {
      const { clientSecret } = await (await createSetupIntent(post({}))).json();
      const res = await confirmSetup(
        post({
          clientSecret,
          cardNumber: "4242424242424242",
          expMonth: "12",
          expYear: "2034",
          cvc: "123",
          ...override,
        }),
      );
      expect(res.status, message).toBe(status);
      expect((await res.json()).error).toMatchObject({ type: "card_error", message });
    }
    expect(await db.demoPaymentMethod.count({ where: { userId: user.id } })).toBe(0);
  });

  it("refuses a client secret issued to someone else", async () => {
    const alice = await createUser();
    const mallory = await createUser();
    asViewer(alice);
    const { clientSecret } = await (await createSetupIntent(post({}))).json();
    asViewer(mallory);
    const res = await confirmSetup(
      post({ clientSecret, cardNumber: "4242424242424242", expMonth: "12", expYear: "34", cvc: "123" }),
    );
    expect(res.status).toBe(400);
    expect(await db.demoPaymentMethod.count({ where: { userId: { in: [alice.id, mallory.id] } } })).toBe(0);
  });

  it("answers bad JSON with 400", async () => {
    const user = await createUser();
    asViewer(user);
    const res = await confirmSetup(post("{not json"));
    expect(res.status).toBe(400);
    expect((await res.json()).error.message).toBe("The request body must be valid JSON.");
  });
});

describe("POST /api/check-and-charge", () => {
  it("50 concurrent calls charge each pledge once (demo payments, idempotent per pledge)", async () => {
    const { campaign, pledges } = await fundedDemoCampaign(12);
    viewer = null;
    // SPEC clients send goal, price and pledges: they are ignored.
    const body = {
      campaignId: campaign.id,
      campaignGoal: 1,
      ticketPrice: 999999,
      pledges: [{ id: "forged" }],
      currentStatus: "pending",
    };
    // 50 callers (each its own address: the endpoint is limited per address and event).
    const responses = await Promise.all(
      Array.from({ length: 50 }, (_, i) => checkAndCharge(post(body, `203.0.113.${i + 1}`))),
    );
    expect(responses.every((r) => r.status === 200)).toBe(true);
    const intents = await intentsFor(pledges.map((p) => p.id));
    const perPledge = new Map<string, number>();
    for (const pi of intents) {
      const id = (pi.metadata as { pledgeId: string }).pledgeId;
      perPledge.set(id, (perPledge.get(id) ?? 0) + 1);
    }
    const dupes = [...perPledge.values()].filter((n) => n > 1).length;
    console.info(
      `[check-and-charge] calls=50 pledges=${pledges.length} charges=${intents.length} duplicates=${dupes}`,
    );
    expect(intents).toHaveLength(12);
    expect(dupes).toBe(0);
    expect(intents.every((pi) => pi.amountCents === 1500 && pi.status === "succeeded")).toBe(true);
    const last = await responses[49].json();
    expect(Object.keys(last).sort()).toEqual(["failed", "successful", "totalCharged", "totalFailed"]);
    const final = await (await checkAndCharge(post({ campaignId: campaign.id }))).json();
    expect(final.totalCharged).toBe(12);
    // A visitor gets the totals, never a pledge id or user id (they would name an anonymous attendee).
    expect(final.successful).toEqual([]);
    const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([c.status, c.totalCharged, c.totalChargedCents]).toEqual(["charged", 12, 18000n]);
  });

  it("charges nothing below the threshold, whatever the client claims", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id, goal: 3, ticketPriceCents: 1500 });
    const user = await createUser();
    const { body } = await saveDemoCard(user);
    const pledge = await createPledge(campaign.id, user.id, {
      paymentMethodId: body.setupIntent.payment_method,
    });
    viewer = null;
    const res = await checkAndCharge(
      post({ campaignId: campaign.id, campaignGoal: 1, pledges: [{}, {}, {}] }),
    );
    expect(await res.json()).toEqual({ successful: [], failed: [], totalCharged: 0, totalFailed: 0 });
    expect(await intentsFor([pledge.id])).toHaveLength(0);
    expect((await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } })).status).toBe("pending");
  });

  it("records the demo test cards' failures", async () => {
    const cards = ["4242424242424242", "4000000000000341", "4000002760003184"];
    const { campaign, pledges } = await fundedDemoCampaign(3, (i) => cards[i]);
    const { creator } = await db.campaign.findUniqueOrThrow({
      where: { id: campaign.id },
      select: { creator: true },
    });
    asViewer(creator);
    const summary = await (await checkAndCharge(post({ campaignId: campaign.id }))).json();
    expect(summary.totalCharged).toBe(1);
    expect(summary.failed.map((f: { code: string }) => f.code).sort()).toEqual([
      "authentication_required",
      "card_declined",
    ]);
    expect(summary.totalFailed).toBe(2);
    const rows = await db.pledge.findMany({
      where: { id: { in: pledges.map((p) => p.id) } },
      orderBy: { createdAt: "asc" },
    });
    const byId = new Map(rows.map((p) => [p.id, p]));
    expect(byId.get(pledges[1].id)).toMatchObject({
      chargeStatus: "failed",
      chargeFailureCode: "card_declined",
      charged: false,
    });
    expect(byId.get(pledges[2].id)).toMatchObject({
      chargeStatus: "requires_action",
      chargeFailureCode: "authentication_required",
      charged: false,
    });
  });

  it("answers bad input with 400 and an unknown campaign with 404", async () => {
    expect((await checkAndCharge(post("nope"))).status).toBe(400);
    const missing = await checkAndCharge(post({}));
    expect(missing.status).toBe(400);
    expect((await missing.json()).error.message).toBe("campaignId: campaignId is required");
    expect((await checkAndCharge(post({ campaignId: 42 }))).status).toBe(400);
    expect((await checkAndCharge(post({ campaignId: "does-not-exist" }))).status).toBe(404);
  });
});

describe("POST /api/check-and-charge: who sees which rows (DESIGN §1 check-and-charge)", () => {
  it("gives SPEC's four keys to everyone, every row to the organizer and admins, a backer only their own", async () => {
    const cards = ["4242424242424242", "4000000000000341", "4242424242424242"];
    const { creator, campaign, pledges } = await fundedDemoCampaign(3, (i) => cards[i]);
    const [first, declined] = await Promise.all(
      pledges.slice(0, 2).map((p) => db.user.findUniqueOrThrow({ where: { id: p.userId } })),
    );
    const other = await createUser();
    const admin = await createUser({ isAdmin: true });
    viewer = null;
    await checkAndCharge(post({ campaignId: campaign.id }));

    const ask = async (who: typeof creator | null) => {
      viewer = who ? { id: who.id, email: who.email, name: who.name, isAdmin: who.isAdmin } : null;
      const res = await checkAndCharge(post({ campaignId: campaign.id }, "192.0.2.10"));
      expect(res.status).toBe(200);
      return { body: await res.json(), text: "" };
    };
    const allIds = [...pledges.map((p) => p.id), ...pledges.map((p) => p.userId)];
    for (const who of [null, other]) {
      const { body } = await ask(who);
      expect(body).toEqual({ successful: [], failed: [], totalCharged: 2, totalFailed: 1 });
      for (const id of allIds) expect(JSON.stringify(body)).not.toContain(id);
    }
    // The backer whose card was declined sees their own row (to act on it), no one else's.
    const mine = (await ask(declined)).body;
    expect(mine.successful).toEqual([]);
    expect(mine.failed).toEqual([
      { pledgeId: pledges[1].id, userId: declined.id, code: "card_declined", message: expect.any(String) },
    ]);
    const firsts = (await ask(first)).body;
    expect(firsts.successful.map((r: { pledgeId: string }) => r.pledgeId)).toEqual([pledges[0].id]);
    expect(firsts.failed).toEqual([]);
    for (const who of [creator, admin]) {
      const { body } = await ask(who);
      expect(body.successful.map((r: { pledgeId: string }) => r.pledgeId).sort()).toEqual(
        [pledges[0].id, pledges[2].id].sort(),
      );
      expect(body.failed).toHaveLength(1);
      expect(body.totalCharged).toBe(2);
    }
  });

  it("is limited per address and event (429 with a message), other addresses and events unaffected", async () => {
    const creator = await createUser();
    const a = await createCampaign({ creatorId: creator.id, goal: 3 });
    const b = await createCampaign({ creatorId: creator.id, goal: 3 });
    viewer = null;
    for (let i = 0; i < 20; i++)
      expect((await checkAndCharge(post({ campaignId: a.id }, "192.0.2.77"))).status).toBe(200);
    const limited = await checkAndCharge(post({ campaignId: a.id }, "192.0.2.77"));
    expect(limited.status).toBe(429);
    expect((await limited.json()).error.message).toMatch(
      /^Too many requests for this event\. Please try again in \d+ seconds?\.$/,
    );
    expect((await checkAndCharge(post({ campaignId: a.id }, "192.0.2.78"))).status).toBe(200);
    expect((await checkAndCharge(post({ campaignId: b.id }, "192.0.2.77"))).status).toBe(200);
  });

  it("never rewrites a settled event: a confirmed free event keeps its totals and chargedAt", async () => {
    const creator = await createUser();
    const campaign = await createCampaign({ creatorId: creator.id, goal: 2, ticketPriceCents: 0 });
    for (let i = 0; i < 2; i++) await createPledge(campaign.id, (await createUser()).id);
    viewer = null;
    const first = await (await checkAndCharge(post({ campaignId: campaign.id }))).json();
    expect(first).toEqual({ successful: [], failed: [], totalCharged: 0, totalFailed: 0 });
    const settled = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    // DESIGN §1 "free events": totalCharged is the number of pledges confirmed.
    expect([settled.status, settled.chargeType, settled.totalCharged, settled.totalChargedCents]).toEqual([
      "charged",
      "free",
      2,
      0n,
    ]);
    await new Promise((r) => setTimeout(r, 20));
    for (const ip of ["192.0.2.1", "192.0.2.2"])
      expect((await checkAndCharge(post({ campaignId: campaign.id }, ip))).status).toBe(200);
    const after = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect([
      after.totalCharged,
      after.chargedAt?.getTime(),
      after.lastStatusUpdate?.getTime(),
      after.updatedAt.getTime(),
    ]).toEqual([
      2,
      settled.chargedAt?.getTime(),
      settled.lastStatusUpdate?.getTime(),
      settled.updatedAt.getTime(),
    ]);
  });
});

describe("POST /api/charge-attendees (manual charge) permission matrix", () => {
  it("visitor 401; a backer, like an unknown id, 404 with SPEC §6's message; creator and admin 200", async () => {
    const { creator, campaign, pledges } = await fundedDemoCampaign(2);
    const backer = await db.user.findUniqueOrThrow({ where: { id: pledges[0].userId } });
    const admin = await createUser({ isAdmin: true });

    viewer = null;
    expect((await chargeAttendees(post({ campaignId: campaign.id }))).status).toBe(401);
    asViewer(backer);
    const forbidden = await chargeAttendees(post({ campaignId: campaign.id }));
    // (was 403: an event that exists answered differently from one that does not)
    expect(forbidden.status).toBe(404);
    expect((await forbidden.json()).error.message).toBe(
      "Campaign not found or you don't have permission to manage it",
    );
    const unknown = await chargeAttendees(post({ campaignId: "cnosuchevent0001" }));
    expect([unknown.status, (await unknown.json()).error.message]).toEqual([
      404,
      "Campaign not found or you don't have permission to manage it",
    ]);
    expect(await intentsFor(pledges.map((p) => p.id))).toHaveLength(0);

    asViewer(creator);
    const res = await chargeAttendees(post({ campaignId: campaign.id, pledges: [], ticketPrice: 1 }));
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ totalCharged: 2, totalFailed: 0 });

    asViewer(admin);
    const again = await chargeAttendees(post({ campaignId: campaign.id }));
    expect(await again.json()).toEqual({ totalCharged: 0, totalFailed: 0 });
    expect(await intentsFor(pledges.map((p) => p.id))).toHaveLength(2);
  });

  it("refuses to charge below the threshold (409) and retries soft declines but not hard ones", async () => {
    const creator = await createUser();
    const below = await createCampaign({ creatorId: creator.id, goal: 5, ticketPriceCents: 1500 });
    asViewer(creator);
    const res = await chargeAttendees(post({ campaignId: below.id }));
    expect(res.status).toBe(409);
    // an expired or cancelled event says so (was: "has not reached its goal yet")
    for (const [status, text] of [
      ["expired", "This event ended without reaching its goal, so nobody can be charged."],
      ["cancelled", "This event was cancelled, so nobody can be charged."],
    ]) {
      const over = await createCampaign({
        creatorId: creator.id,
        goal: 5,
        ticketPriceCents: 1500,
        status: status as "expired" | "cancelled",
      });
      const answer = await chargeAttendees(post({ campaignId: over.id }));
      expect([answer.status, (await answer.json()).error.message]).toEqual([409, text]);
    }

    const {
      creator: owner,
      campaign,
      pledges,
    } = await fundedDemoCampaign(2, (i) => (i === 0 ? "4000000000000341" : "4242424242424242"));
    await checkAndCharge(post({ campaignId: campaign.id }));
    // The 0341 card's decline is a soft one (card_declined): the organizer may retry it.
    asViewer(owner);
    expect(await (await chargeAttendees(post({ campaignId: campaign.id }))).json()).toEqual({
      totalCharged: 0,
      totalFailed: 1,
    });
    const p = await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } });
    expect(p.chargeAttempts).toBe(2);
    // A hard decline waits for the backer's new card.
    await db.pledge.update({ where: { id: pledges[0].id }, data: { chargeFailureCode: "lost_card" } });
    expect(await (await chargeAttendees(post({ campaignId: campaign.id }))).json()).toEqual({
      totalCharged: 0,
      totalFailed: 0,
    });
  });

  it("hammering manual charge: a soft decline gets one retry, one email per failure, and the event's charge button is limited (issue 14)", async () => {
    const { creator, campaign, pledges } = await fundedDemoCampaign(1, () => "4000000000000341");
    await checkAndCharge(post({ campaignId: campaign.id }));
    asViewer(creator);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push(await chargeAttendees(post({ campaignId: campaign.id })));
    expect(answers.slice(0, 3).map((r) => r.status)).toEqual([200, 200, 200]);
    expect(await answers[0].json()).toEqual({ totalCharged: 0, totalFailed: 1 }); // the one retry
    expect(await answers[1].json()).toEqual({ totalCharged: 0, totalFailed: 0 }); // no more off-session attempts
    expect(answers[3].status).toBe(429);
    expect((await answers[3].json()).error.message).toMatch(
      /^Charging was just run for this event\. Please try again in \d+ seconds?\.$/,
    );
    expect((await db.pledge.findUniqueOrThrow({ where: { id: pledges[0].id } })).chargeAttempts).toBe(2);
    expect(await intentsFor([pledges[0].id])).toHaveLength(2);
    expect(
      await db.emailOutbox.count({ where: { dedupeKey: { startsWith: `charge-failed:${pledges[0].id}:` } } }),
    ).toBe(1);
  });
});
