import { describe, expect, it, vi } from "vitest";

vi.mock("next/cache", () => ({ revalidatePath: vi.fn(), revalidateTag: vi.fn(), updateTag: vi.fn() }));

/** While the provider is asked about the card, the test may change the event (`during`). */
const hooks: { during: (() => Promise<void>) | null } = { during: null };
vi.mock("@/lib/payments/gateway", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/payments/gateway")>();
  return {
    ...real,
    getGateway: () => {
      const g = real.getGateway();
      return {
        ...g,
        getCard: async (...args: Parameters<typeof g.getCard>) => {
          const card = await g.getCard(...args);
          if (hooks.during) await hooks.during();
          return card;
        },
      };
    },
  };
});

import { db } from "@/lib/db";
import { commitToCampaign } from "@/lib/pledges/service";
import { createCampaign, createUser } from "../helpers/factories";

async function personWithCard() {
  const u = await createUser();
  const pm = `pm_demo_${Math.random().toString(16).slice(2, 14)}${Math.random().toString(16).slice(2, 14)}`;
  await db.demoPaymentMethod.create({
    data: { id: pm, userId: u.id, brand: "visa", last4: "4242", expMonth: 12, expYear: 2030, behavior: "ok" },
  });
  return { viewer: { id: u.id, email: u.email, name: u.name, isAdmin: false }, pm };
}

/**
 * A paid commit reads its event once before asking the provider about the card, and its first write
 * goes against that read (issue 37's one-tap commits): a row that moved meanwhile is read again.
 */
describe("a paid commit's first read", () => {
  it("a commit landing meanwhile is counted: the write against the old row is retried on a fresh one", async () => {
    const event = await createCampaign({ goal: 10, ticketPriceCents: 1500 });
    const a = await personWithCard();
    const b = await personWithCard();
    hooks.during = async () => {
      hooks.during = null;
      await commitToCampaign(b.viewer, { campaignId: event.id, paymentMethodId: b.pm });
    };
    const r = await commitToCampaign(a.viewer, { campaignId: event.id, paymentMethodId: a.pm });
    expect(r.committedCount).toBe(2);
    const row = await db.campaign.findUniqueOrThrow({ where: { id: event.id } });
    expect([row.committedCount, row.pledgeCount]).toEqual([2, 2]);
    expect(await db.pledge.count({ where: { campaignId: event.id } })).toBe(2);
  });

  it("an event made free meanwhile refuses the card's commit and writes nothing", async () => {
    const event = await createCampaign({ goal: 10, ticketPriceCents: 1500 });
    const a = await personWithCard();
    hooks.during = async () => {
      hooks.during = null;
      await db.campaign.update({ where: { id: event.id }, data: { ticketPriceCents: 0 } });
    };
    await expect(
      commitToCampaign(a.viewer, { campaignId: event.id, paymentMethodId: a.pm }),
    ).rejects.toThrow();
    expect(await db.pledge.count({ where: { campaignId: event.id } })).toBe(0);
  });
});
