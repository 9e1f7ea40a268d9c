import { describe, expect, it } from "vitest";
import { commitToCampaign } from "@/lib/pledges/service";
import { getManageView } from "@/lib/pledges/manage-queries";
import { getCommitmentsCsv } from "@/lib/pledges/commitments-csv";
import { MONEY_WORDS } from "@/lib/events/story";
import { createCampaign, createUser } from "@/tests/helpers/factories";

/* A confirmed free event has no payment: its seats are never "Paid" on the manage page or in the CSV. */

const v = (u: { id: string; email: string }) => ({ id: u.id, email: u.email, name: null, isAdmin: false });

describe("the manage page of a confirmed free event", () => {
  it("says VERIFIED on every seat (a group's too), never Paid; the CSV has no payment time", async () => {
    const organizer = await createUser();
    const c = await createCampaign({ creatorId: organizer.id, goal: 3, maxSeats: 4, ticketPriceCents: 0 });
    const ada = await createUser();
    const bo = await createUser();
    await commitToCampaign(v(ada), { campaignId: c.id, seats: 2 });
    await commitToCampaign(v(bo), { campaignId: c.id }); // the goal: confirmed, every seat at once

    const view = (await getManageView(c.id, v(organizer)))!;
    expect(view.campaign.paid).toBe(false);
    expect(view.commitments).toHaveLength(3);
    for (const p of view.commitments) {
      expect(p.status).toEqual({ label: "VERIFIED", tone: "green", note: null });
      expect(p.chargedAt).toBeNull();
    }
    expect(JSON.stringify(view.commitments)).not.toContain(MONEY_WORDS.charged);

    const csv = (await getCommitmentsCsv(c.id, v(organizer)))!.csv.trim().split("\r\n");
    const header = csv[0]!.split(",");
    const status = header.indexOf('"Status"');
    const chargedAt = header.indexOf('"Charged at (UTC)"');
    expect(csv.slice(1)).toHaveLength(3);
    for (const line of csv.slice(1)) {
      const cells = line.split(",");
      expect(cells[status]).toBe('"VERIFIED"');
      expect(cells[chargedAt]).toBe('""');
      expect(line).not.toContain(MONEY_WORDS.charged);
    }
  });

  it("a paid event's charged seat still says Paid (the same rule, lib/events/story.ts)", async () => {
    const { organizerStory } = await import("@/lib/events/story");
    const facts = {
      standing: "in" as const,
      chargeStatus: "succeeded" as const,
      charged: true,
      cents: 1500,
      recovery: null,
      failureCode: null,
      promoted: false,
      verified: true,
      minPeople: null,
      refund: "none" as const,
      eventCancelled: false,
      waitlist: null,
    };
    expect(organizerStory({ ...facts, paid: true }).label).toBe("Paid");
    expect(organizerStory({ ...facts, paid: false, cents: 0 }).label).toBe("VERIFIED");
  });
});
