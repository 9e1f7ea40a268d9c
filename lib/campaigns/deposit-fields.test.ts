import { describe, expect, it } from "vitest";
import {
  createCampaignSchema,
  emptyCampaignForm,
  fieldErrorsOf,
  type CampaignFormValues,
} from "@/lib/campaigns/schema";
import { draftSchema } from "@/lib/drafts/schema";
import { DEPOSIT_TEXTS, formDepositRefusal } from "@/lib/campaigns/deposit-fields";
import { countsTowardGoal, isFreeEvent, isPaidEvent, pledgeChargeCents } from "@/lib/events/lifecycle";
import {
  collectingSentence,
  depositRules,
  depositText,
  priceWithDeposit,
} from "@/lib/events/money-sentences";

// issue 36 item 3: the show-up deposit as the create form and a draft read it, and as it is said.
const NOW = new Date("2026-11-21T12:00:00Z").getTime();
const H = 3600_000;
const schema = createCampaignSchema(() => NOW);

const withDeposit: CampaignFormValues = {
  ...emptyCampaignForm,
  title: "Board game night",
  description: "Bring your favourite games and meet new people.",
  goal: "25",
  deadline: new Date(NOW + 7 * 24 * H).toISOString(),
  startsAt: new Date(NOW + 8 * 24 * H).toISOString(),
  venue: "Old Hall",
  ticketPrice: "20",
  depositEnabled: true,
  depositAmount: "10",
  depositGraceHours: "48",
};

function errors(overrides: Partial<CampaignFormValues>) {
  const r = schema.safeParse({ ...withDeposit, ...overrides });
  return r.success ? {} : fieldErrorsOf(r.error);
}

describe("the create form's show-up deposit", () => {
  it("stores the amount in cents and the grace in hours on an event with a start and a place", () => {
    expect(schema.parse(withDeposit)).toMatchObject({ depositCents: 1000, depositGraceHours: 48 });
    // an address alone is an in-person place too; an empty grace is the default 24 hours
    expect(
      schema.parse({ ...withDeposit, venue: "", address: "2 6th Ave", depositGraceHours: "" }),
    ).toMatchObject({ depositCents: 1000, depositGraceHours: 24 });
    // not ticked: none, whatever the amount says
    expect(schema.parse({ ...withDeposit, depositEnabled: false, depositAmount: "999" })).toMatchObject({
      depositCents: 0,
      depositGraceHours: 24,
    });
  });

  it("is refused without a start time or without an in-person place, with the reason", () => {
    expect(errors({ startsAt: "" })).toEqual({ depositEnabled: DEPOSIT_TEXTS.notAllowed });
    expect(errors({ venue: "", onlineUrl: "https://meet.example.com/x" })).toEqual({
      depositEnabled: DEPOSIT_TEXTS.notAllowed,
    });
    expect(formDepositRefusal({ ...withDeposit, startsAt: "" })).toBe(DEPOSIT_TEXTS.notAllowed);
    expect(formDepositRefusal(withDeposit)).toBeNull();
  });

  it("is refused on a crowdfund", () => {
    const crowdfund = { pactType: "crowdfund" as const, paymentType: "venmo" as const, paymentMethod: "me" };
    expect(errors(crowdfund)).toEqual({ depositEnabled: DEPOSIT_TEXTS.crowdfund });
    expect(schema.parse({ ...withDeposit, ...crowdfund, depositEnabled: false }).depositCents).toBe(0);
  });

  it("is $1 to $500 and its grace 1 to 168 whole hours", () => {
    for (const bad of ["", "0.99", "500.01", "abc", "-5", "10.555"])
      expect(errors({ depositAmount: bad })).toEqual({ depositAmount: DEPOSIT_TEXTS.amountRange });
    expect(schema.parse({ ...withDeposit, depositAmount: "1" }).depositCents).toBe(100);
    expect(schema.parse({ ...withDeposit, depositAmount: "$500.00" }).depositCents).toBe(50_000);
    for (const bad of ["0", "169", "1.5", "a day"])
      expect(errors({ depositGraceHours: bad })).toEqual({ depositGraceHours: DEPOSIT_TEXTS.graceRange });
    expect(schema.parse({ ...withDeposit, depositGraceHours: "168" }).depositGraceHours).toBe(168);
  });

  it("a draft keeps a well-formed deposit, and refuses a malformed one", () => {
    expect(draftSchema.parse({ ...withDeposit, startsAt: "" })).toMatchObject({
      depositCents: 1000,
      depositGraceHours: 48,
    });
    // ticked with no amount yet: nothing kept, nothing refused
    expect(draftSchema.parse({ ...withDeposit, depositAmount: "" }).depositCents).toBe(0);
    expect(draftSchema.safeParse({ ...withDeposit, depositAmount: "900" }).success).toBe(false);
  });
});

describe("a free event with a deposit (the campaign core)", () => {
  const freeWithDeposit = { pactType: "paction", ticketPriceCents: 0, depositCents: 1000 };
  it("takes a card and money, counts only with a card, and its ticket part is 0", () => {
    expect(isPaidEvent(freeWithDeposit)).toBe(true);
    expect(isFreeEvent(freeWithDeposit)).toBe(false);
    expect(countsTowardGoal(freeWithDeposit, false)).toBe(false);
    expect(countsTowardGoal(freeWithDeposit, true)).toBe(true);
    expect(pledgeChargeCents(freeWithDeposit, { amountCents: 0 })).toBe(0);
  });

  it("says the deposit the same way everywhere", () => {
    const paid = { ...freeWithDeposit, ticketPriceCents: 2000, depositGraceHours: 24 };
    expect(priceWithDeposit(paid)).toBe("$20.00 ticket + $10.00 show-up deposit, refunded when you check in");
    expect(priceWithDeposit(freeWithDeposit)).toBe(
      "Free ticket + $10.00 show-up deposit, refunded when you check in",
    );
    expect(depositText({ ...freeWithDeposit, depositCents: 0 })).toBeNull();
    expect(depositText({ ...freeWithDeposit, pactType: "crowdfund" })).toBeNull();
    expect(depositRules({ ...paid, depositGraceHours: 72 })).toContain("kept 3 days after the event ends");
    // the money sentence charges the whole payment: the ticket and the deposit
    const facts = { ...paid, goal: 5, status: "pending", deadline: new Date(NOW + H) };
    expect(collectingSentence(facts)).toContain("You're charged $30.00 only if");
    expect(collectingSentence({ ...facts, ticketPriceCents: 0 })).toContain("You're charged $10.00 only if");
  });
});
