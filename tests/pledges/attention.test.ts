import { beforeEach, describe, expect, it, vi } from "vitest";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/access/viewer";
import { createCampaign, createPledge, createUser } from "@/tests/helpers/factories";

// The route resolves the viewer from the session; the test chooses who is asking.
let viewer: Viewer | null = null;
vi.mock("@/lib/access/viewer", () => ({ getViewer: async () => viewer }));

const { paymentAttention } = await import("@/lib/pledges/attention");
const { GET } = await import("@/app/api/me/attention/route");

const DAY = 86_400_000;
const asViewer = (u: { id: string; email: string; name: string | null }) =>
  ({ id: u.id, email: u.email, name: u.name, isAdmin: false }) satisfies Viewer;

/** A confirmed paid event on which `userId`'s charge failed `ago` ms ago (as the charge pipeline leaves it). */
async function failedPayment(userId: string, ago = DAY, title = "Board games night") {
  const event = await createCampaign({
    title,
    goal: 1,
    ticketPriceCents: 3000,
    status: "charged",
    timeZone: "America/New_York",
  });
  const pledge = await createPledge(event.id, userId, { amountCents: 3000, paymentMethodId: "pm_demo_gone" });
  await db.pledge.update({
    where: { id: pledge.id },
    data: {
      chargeStatus: "failed",
      chargeAttempts: 2,
      chargeFailureCode: "card_declined",
      paymentFailedAt: new Date(Date.now() - ago),
    },
  });
  return { event, pledge };
}

describe("the failed-payment banner's endpoint (issue 34 item 2)", () => {
  beforeEach(() => {
    viewer = null;
  });

  it("lists the viewer's own failed payment with the event, the pay-by date and the pay page", async () => {
    const backer = await createUser();
    const { pledge } = await failedPayment(backer.id);
    const items = await paymentAttention(asViewer(backer));
    expect(items).toHaveLength(1);
    expect(items[0].payUrl).toBe(`/pledges/${pledge.id}/pay`);
    expect(items[0].text).toMatch(/^Your payment for "Board games night" failed — pay by .+ (EST|EDT)$/);
    // the pay-by date is the recovery window's (lib/ledger/payment-window): failure + PAYMENT_RECOVERY_DAYS
    const due = new Date(items[0].dueAt).getTime();
    expect(due).toBeGreaterThan(Date.now());
    expect(due).toBeLessThanOrEqual(Date.now() + 31 * DAY);
  });

  it("never answers with another person's payment, and nothing for a visitor", async () => {
    const backer = await createUser();
    const other = await createUser();
    await failedPayment(backer.id);
    expect(await paymentAttention(asViewer(other))).toEqual([]);
    expect(await paymentAttention(null)).toEqual([]);
  });

  it("leaves out a payment that was made, and one whose window has closed", async () => {
    const backer = await createUser();
    const { pledge } = await failedPayment(backer.id);
    await failedPayment(backer.id, 400 * DAY, "Long ago");
    await db.pledge.update({
      where: { id: pledge.id },
      data: { chargeStatus: "succeeded", charged: true, chargedAt: new Date() },
    });
    expect(await paymentAttention(asViewer(backer))).toEqual([]);
  });

  it("the route answers for the session's user only, private and never stored", async () => {
    const backer = await createUser();
    const other = await createUser();
    const { pledge } = await failedPayment(backer.id);

    viewer = asViewer(backer);
    let res = await GET();
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect((await res.json()).payments.map((p: { pledgeId: string }) => p.pledgeId)).toEqual([pledge.id]);

    viewer = asViewer(other);
    // it takes no parameters: nothing a caller adds can point it at someone else
    res = await GET();
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.json()).toEqual({ payments: [] });

    viewer = null;
    res = await GET();
    expect(res.headers.get("cache-control")).toBe("private, no-store");
    expect(await res.json()).toEqual({ payments: [] });
  });
});
