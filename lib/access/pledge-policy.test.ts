import { describe, expect, it } from "vitest";
import { commitBlock } from "@/lib/access/pledge-policy";
import { canManageEvent as canManageCampaign } from "@/lib/access/rules";
import { isPaidEvent } from "@/lib/events/lifecycle";

const now = new Date("2026-11-21T12:00:00Z");
const open = {
  creatorId: "creator",
  status: "pending",
  approvalStatus: "approved",
  deadline: new Date("2026-11-22T12:00:00Z"),
};
const user = { id: "u1", isAdmin: false };
const admin = { id: "a1", isAdmin: true };

describe("commitBlock", () => {
  it("orders reasons: sign-in, own pledge, approval, status, deadline", () => {
    expect(commitBlock(null, { ...open, status: "charged" }, false, now)).toBe("signedOut");
    expect(commitBlock(user, { ...open, status: "charged" }, true, now)).toBe("alreadyCommitted");
    expect(commitBlock(user, { ...open, approvalStatus: "pending", status: "charged" }, false, now)).toBe(
      "notApproved",
    );
    expect(commitBlock(user, open, false, now)).toBeNull();
  });

  it.each(["funded", "charging", "charged", "expired", "cancelled"])("closed when %s", (status) => {
    expect(commitBlock(user, { ...open, status }, false, now)).toBe("closed");
  });

  it("admins may commit to unapproved events; the deadline instant itself is closed", () => {
    expect(commitBlock(admin, { ...open, approvalStatus: "rejected" }, false, now)).toBeNull();
    expect(commitBlock(user, { ...open, deadline: now }, false, now)).toBe("ended");
    expect(commitBlock(user, { ...open, deadline: new Date(now.getTime() + 1) }, false, now)).toBeNull();
  });
});

describe("canManageCampaign / isPaidEvent", () => {
  it("only the creator manages; admins do not", () => {
    expect(canManageCampaign({ id: "creator", isAdmin: false }, open)).toBe(true);
    expect(canManageCampaign(admin, open)).toBe(false);
    expect(canManageCampaign(null, open)).toBe(false);
  });
  it("free means a price of 0 and no show-up deposit", () => {
    expect(isPaidEvent({ ticketPriceCents: 0, depositCents: 0 })).toBe(false);
    expect(isPaidEvent({ ticketPriceCents: 1, depositCents: 0 })).toBe(true);
    // issue 36: a free event with a deposit takes a card and money
    expect(isPaidEvent({ ticketPriceCents: 0, depositCents: 1000 })).toBe(true);
  });
});
