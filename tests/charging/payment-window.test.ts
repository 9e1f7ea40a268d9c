import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "@/lib/db";
import { startFakeStripe, type FakeStripe } from "@/tests/fake-stripe/server";
import { useFakeStripeEnv } from "@/tests/fake-stripe/env";
import { deliverStripeEvent } from "@/tests/fake-stripe/webhook";
import { duplicates, fundedPaidCampaign } from "@/tests/charging/helpers";

/**
 * Failed-payment recovery (DESIGN §1 "failed payments", issue 19 item 1) against the fake Stripe,
 * with the recovery pass's clock moved by hand: the window opens at the first failure, a soft
 * decline is retried once a day later, reminders every 48 hours, the pledge is dropped when the
 * window closes (7 days, or the event start if sooner) and never charged after; and exactly once
 * when the automatic retry, the backer's own payment, a manual charge and webhooks race.
 */
let fake: FakeStripe;
let pass: typeof import("@/lib/charging/recovery-pass");
let service: typeof import("@/lib/charging/service");
let recovery: typeof import("@/lib/charging/recovery");
let state: typeof import("@/lib/ledger/pledge-state");
let queries: typeof import("@/lib/charging/queries");
let webhook: (req: Request) => Promise<Response>;

beforeAll(async () => {
  fake = await startFakeStripe();
  useFakeStripeEnv(fake, { STRIPE_RATE_LIMIT: "1000", RATE_LIMIT_DISABLED: "true" });
  pass = await import("@/lib/charging/recovery-pass");
  service = await import("@/lib/charging/service");
  recovery = await import("@/lib/charging/recovery");
  state = await import("@/lib/ledger/pledge-state");
  queries = await import("@/lib/charging/queries");
  ({ POST: webhook } = await import("@/app/api/stripe/webhook/route"));
});
afterAll(async () => {
  await fake.close();
});

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const at = (t0: Date, ms: number) => new Date(t0.getTime() + ms);
const outboxKeys = async (prefix: string) =>
  (
    await db.emailOutbox.findMany({
      where: { dedupeKey: { startsWith: prefix } },
      select: { dedupeKey: true },
    })
  )
    .map((e) => e.dedupeKey)
    .sort();
const pledgeRow = (id: string) => db.pledge.findUniqueOrThrow({ where: { id } });
const backer = (u: { id: string; email: string }) => ({ id: u.id, email: u.email, isAdmin: false });

/** Stripe reports one of the pledge's payments (a replay of what happened, or the opposite of it). */
function deliver(type: "payment_intent.succeeded" | "payment_intent.payment_failed", piId: string) {
  const pi = fake.state.paymentIntents.get(piId)!;
  return deliverStripeEvent(webhook, type, {
    id: piId,
    object: "payment_intent",
    amount: pi.amount,
    created: Math.floor(Date.now() / 1000),
    status: type === "payment_intent.succeeded" ? "succeeded" : "requires_payment_method",
    metadata: pi.metadata,
    last_payment_error:
      type === "payment_intent.succeeded"
        ? null
        : {
            type: "card_error",
            code: "card_declined",
            decline_code: "insufficient_funds",
            message: "Declined",
          },
  });
}

describe("the recovery window of a failed payment", () => {
  it("opens once at the failure, retries a soft decline once after a day, reminds every 48 hours, drops at 7 days and never charges after", async () => {
    const behaviors = ["insufficient_funds", "lost_card", "authentication_required", "ok"] as const;
    const { creator, campaign, users, pledges } = await fundedPaidCampaign(fake, {
      pledges: 4,
      behaviors: (i) => behaviors[i],
    });
    await db.campaign.update({
      where: { id: campaign.id },
      data: { startsAt: new Date(Date.now() + 30 * DAY) },
    });
    await service.runCharging(campaign.id);

    const failed = pledges.slice(0, 3).map((p) => p.id);
    const rows = await Promise.all(pledges.map((p) => pledgeRow(p.id)));
    expect(rows.map((r) => r.chargeStatus)).toEqual(["failed", "failed", "requires_action", "succeeded"]);
    expect(rows.slice(0, 3).every((r) => r.paymentFailedAt instanceof Date)).toBe(true);
    expect(rows[3].paymentFailedAt).toBeNull();
    expect(await outboxKeys("charge-failed:")).toEqual(failed.map((id) => `charge-failed:${id}:1`).sort());
    const t0 = rows[0].paymentFailedAt!;

    // Within the first day: nothing to do.
    expect(await pass.runPaymentRecovery({ now: at(t0, HOUR) })).toEqual({
      dropped: 0,
      retried: 0,
      failedAgain: 0,
      noticed: 0,
      reminded: 0,
    });
    expect(await queries.paymentCounts(campaign.id)).toMatchObject({
      awaitingCard: 2,
      retrying: 1,
      dropped: 0,
    });

    // A day later the soft decline is retried once (still declined); the hard decline and the
    // authentication are not: only the backer can settle those.
    expect(await pass.runPaymentRecovery({ now: at(t0, 25 * HOUR) })).toMatchObject({
      retried: 0,
      failedAgain: 1,
    });
    expect(await pass.runPaymentRecovery({ now: at(t0, 26 * HOUR) })).toMatchObject({
      retried: 0,
      failedAgain: 0,
    });
    expect(failed.map((id) => fake.chargeCount(id))).toEqual([2, 1, 1]);
    const retried = await pledgeRow(failed[0]);
    expect([retried.chargeStatus, retried.chargeAttempts, retried.paymentFailedAt]).toEqual([
      "failed",
      2,
      t0,
    ]);
    expect(await queries.paymentCounts(campaign.id)).toMatchObject({ awaitingCard: 3, retrying: 0 });
    // One failure email per pledge however many attempts failed.
    expect(await outboxKeys("charge-failed:")).toHaveLength(3);

    // Reminders at 48 and 96 hours, once each.
    expect((await pass.runPaymentRecovery({ now: at(t0, 49 * HOUR) })).reminded).toBe(3);
    expect((await pass.runPaymentRecovery({ now: at(t0, 50 * HOUR) })).reminded).toBe(0);
    expect((await pass.runPaymentRecovery({ now: at(t0, 97 * HOUR) })).reminded).toBe(3);
    expect(await outboxKeys("charge-reminder:")).toEqual(
      failed.flatMap((id) => [`charge-reminder:${id}:1`, `charge-reminder:${id}:2`]).sort(),
    );
    const reminder = await db.emailOutbox.findUniqueOrThrow({
      where: { dedupeKey: `charge-reminder:${failed[0]}:1` },
    });
    expect(reminder.toEmail).toBe(users[0].email);
    expect(reminder.subject).toMatch(/^Reminder: pay \$25\.00 by .+ to keep your place/);
    expect(reminder.text).toContain("your place is released and you won't be charged");
    expect(reminder.html).toContain(`/pledges/${failed[0]}/pay`);

    // Seven days after the failure the window closes: dropped, released, both sides told.
    const before = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect((await pass.runPaymentRecovery({ now: at(t0, 7 * DAY + 60_000) })).dropped).toBe(3);
    // the payment still waiting for the bank was cancelled first, so it can never go through
    expect(fake.state.paymentIntents.get(rows[2].paymentIntentId!)!.status).toBe("canceled");
    for (const id of failed) {
      const p = await pledgeRow(id);
      expect(p.droppedAt).not.toBeNull();
      expect(p.withdrawnAt).not.toBeNull();
      expect(p.paymentMethodId).toBeNull(); // the saved card was released
    }
    const after = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
    expect(after.committedCount).toBe(before.committedCount - 3);
    expect(await outboxKeys("charge-dropped:")).toEqual(failed.map((id) => `charge-dropped:${id}`).sort());
    const told = await db.emailOutbox.findMany({
      where: { dedupeKey: { startsWith: "charge-dropped-organizer:" } },
    });
    expect(told.map((e) => e.toEmail)).toEqual([creator.email, creator.email, creator.email]);
    expect(await queries.paymentCounts(campaign.id)).toMatchObject({
      awaitingCard: 0,
      retrying: 0,
      dropped: 3,
    });

    // Never charged after: not by the backer, a manual charge, or another pass.
    const fresh = fake.addPaymentMethod(users[0].stripeCustomerId, "ok");
    await expect(
      recovery.payPledgeOnSession(backer(users[0]), { pledgeId: failed[0], paymentMethodId: fresh }),
    ).rejects.toMatchObject({ code: "CONFLICT", message: expect.stringMatching(/ran out/) });
    expect(await service.chargeOutstanding(campaign.id, { id: creator.id, isAdmin: false })).toEqual({
      totalCharged: 0,
      totalFailed: 0,
    });
    expect(await pass.runPaymentRecovery({ now: at(t0, 30 * DAY) })).toEqual({
      dropped: 0,
      retried: 0,
      failedAgain: 0,
      noticed: 0,
      reminded: 0,
    });
    expect(failed.map((id) => fake.chargeCount(id))).toEqual([2, 1, 1]);
  });

  it("closes at the event start when that comes first; past its end no claim takes the pledge, even before the pass drops it", async () => {
    const { campaign, users, pledges } = await fundedPaidCampaign(fake, {
      pledges: 2,
      behaviors: (i) => (i === 0 ? "insufficient_funds" : "ok"),
    });
    const startsAt = new Date(Date.now() + 2 * DAY);
    await db.campaign.update({
      where: { id: campaign.id },
      data: { deadline: new Date(Date.now() + HOUR), startsAt },
    });
    await service.runCharging(campaign.id);
    const p = await pledgeRow(pledges[0].id);
    const t0 = p.paymentFailedAt!;

    // The pay page states the earlier of the two dates.
    const page = await queries.getPledgeForPayment(p.id, users[0].id);
    expect(page!.dueBy).toEqual(startsAt);
    expect((await pass.runPaymentRecovery({ now: at(t0, HOUR) })).dropped).toBe(0);

    // The window is over by the database's clock, but the pass has not run yet: nothing may claim it.
    await db.$executeRaw`UPDATE "Campaign" SET "deadline" = now() - interval '2 minutes', "startsAt" = now() - interval '1 minute'
      WHERE id = ${campaign.id}`;
    const card = fake.addPaymentMethod(users[0].stripeCustomerId, "ok");
    await expect(
      recovery.payPledgeOnSession(backer(users[0]), { pledgeId: p.id, paymentMethodId: card }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
    expect(
      await state.claimForOnSession(p.id, users[0].id, {
        paymentMethodId: card,
        brand: "visa",
        last4: "4242",
        expMonth: 1,
        expYear: 2040,
      }),
    ).toBeNull();
    await service.chargeOutstanding(campaign.id, { id: campaign.creatorId, isAdmin: false });
    // the manual charge would retry this soft decline inside its window; past it, it does not
    expect(fake.chargeCount(p.id)).toBe(1);
    expect(await pass.runPaymentRecovery()).toMatchObject({ dropped: 1, retried: 0, failedAgain: 0 });
    expect(fake.chargeCount(p.id)).toBe(1);
  });

  it("charges exactly once when the automatic retry, the backer's payment, a manual charge and webhook replays race", async () => {
    for (let round = 0; round < 4; round++) {
      const { campaign, users, pledges } = await fundedPaidCampaign(fake, {
        pledges: 2,
        behaviors: (i) => (i === 0 ? "insufficient_funds" : "ok"),
      });
      await service.runCharging(campaign.id);
      const first = await pledgeRow(pledges[0].id);
      expect(first.chargeStatus).toBe("failed");
      // The bank now accepts the saved card; the backer also brings a new one.
      fake.state.paymentMethods.get(pledges[0].paymentMethodId)!.behavior = "ok";
      const card = fake.addPaymentMethod(users[0].stripeCustomerId, "ok");
      const creator = { id: campaign.creatorId, isAdmin: false };

      const settled = await Promise.allSettled([
        pass.runPaymentRecovery({ now: at(first.paymentFailedAt!, 25 * HOUR) }),
        recovery.payPledgeOnSession(backer(users[0]), { pledgeId: first.id, paymentMethodId: card }),
        service.chargeOutstanding(campaign.id, creator),
        deliver("payment_intent.payment_failed", first.paymentIntentId!),
      ]);
      // Losers are told why (already paid, or a payment in progress); nothing fails on the server.
      for (const s of settled)
        if (s.status === "rejected") expect((s.reason as { code?: string }).code).toBe("CONFLICT");

      // Every payment intent of the pledge reported again, in any order: nothing changes.
      const intents = [...fake.state.paymentIntents.values()].filter(
        (pi) => pi.metadata.pledgeId === first.id,
      );
      for (const pi of intents)
        await deliver(
          pi.status === "succeeded" ? "payment_intent.succeeded" : "payment_intent.payment_failed",
          pi.id,
        );

      const paid = await pledgeRow(first.id);
      expect(paid.chargeStatus).toBe("succeeded");
      expect(
        (fake.state.chargesByPledge.get(first.id) ?? []).filter((c) => c.status === "succeeded"),
      ).toHaveLength(1);
      expect(
        duplicates(
          fake,
          pledges.map((x) => x.id),
        ),
      ).toEqual([]);
      const c = await db.campaign.findUniqueOrThrow({ where: { id: campaign.id } });
      expect([c.status, c.totalCharged, Number(c.totalChargedCents)]).toEqual(["charged", 2, 5000]);
    }
  });

  it("a payment waiting for authentication that went through before the window closed is recorded, not dropped", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, {
      pledges: 1,
      behaviors: () => "authentication_required",
    });
    await service.runCharging(campaign.id);
    const p = await pledgeRow(pledges[0].id);
    expect(p.chargeStatus).toBe("requires_action");
    // the backer finished 3-D Secure at the last moment; no webhook has arrived yet
    fake.state.paymentIntents.get(p.paymentIntentId!)!.status = "succeeded";
    expect((await pass.runPaymentRecovery({ now: at(p.paymentFailedAt!, 8 * DAY) })).dropped).toBe(0);
    const after = await pledgeRow(p.id);
    expect([after.chargeStatus, after.droppedAt, after.withdrawnAt]).toEqual(["succeeded", null, null]);
    expect(fake.chargeCount(p.id)).toBe(1);
  });

  it("a failure whose email never went out is noticed after 15 minutes; a cancelled event's failures are left alone", async () => {
    const { campaign, pledges } = await fundedPaidCampaign(fake, {
      pledges: 2,
      behaviors: () => "insufficient_funds",
    });
    await service.runCharging(campaign.id);
    const [a, b] = await Promise.all(pledges.map((x) => pledgeRow(x.id)));
    // as if the process died between recording the failure and queuing its email
    await db.emailOutbox.deleteMany({ where: { dedupeKey: `charge-failed:${a.id}:1` } });
    expect((await pass.runPaymentRecovery({ now: at(a.paymentFailedAt!, 10 * 60_000) })).noticed).toBe(0);
    expect((await pass.runPaymentRecovery({ now: at(a.paymentFailedAt!, 16 * 60_000) })).noticed).toBe(1);
    expect(await outboxKeys(`charge-failed:${a.id}`)).toEqual([`charge-failed:${a.id}:1`]);
    expect(await outboxKeys(`charge-failed:${b.id}`)).toEqual([`charge-failed:${b.id}:1`]);
    // the reminders keep their rhythm from the failure
    expect((await pass.runPaymentRecovery({ now: at(a.paymentFailedAt!, 49 * HOUR) })).reminded).toBe(2);

    await db.campaign.update({
      where: { id: campaign.id },
      data: { status: "cancelled", cancelledAt: new Date() },
    });
    expect(await pass.runPaymentRecovery({ now: at(a.paymentFailedAt!, 30 * DAY) })).toEqual({
      dropped: 0,
      retried: 0,
      failedAgain: 0,
      noticed: 0,
      reminded: 0,
    });
    expect((await pledgeRow(a.id)).droppedAt).toBeNull();
  });
});
