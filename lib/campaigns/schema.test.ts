import { describe, expect, it } from "vitest";
import {
  createCampaignSchema,
  emptyCampaignForm,
  fieldErrorsOf,
  type CampaignFormValues,
} from "@/lib/campaigns/schema";
import { draftSchema } from "@/lib/drafts/schema";
import { REFUND_BONUS_TEXTS } from "@/lib/campaigns/texts";
import { homeQuerySchema } from "@/lib/campaigns/filters";

const NOW = new Date("2026-11-21T12:00:00Z").getTime();
const H = 3600_000;
const schema = createCampaignSchema(() => NOW);

const valid: CampaignFormValues = {
  ...emptyCampaignForm,
  title: "Board game night",
  description: "Bring your favourite games and meet new people.",
  goal: "25",
  deadline: new Date(NOW + 7 * 24 * H).toISOString(),
  ticketPrice: "12.50",
};

function errors(overrides: Partial<CampaignFormValues>) {
  const r = schema.safeParse({ ...valid, ...overrides });
  return r.success ? {} : fieldErrorsOf(r.error);
}

describe("create schema: valid input", () => {
  it("parses, trims and stores the price in cents with SPEC defaults", () => {
    const r = schema.parse({ ...valid, title: "  Board game night  ", logisticalDetails: "  Room 4 " });
    expect(r).toMatchObject({
      title: "Board game night",
      logisticalDetails: "Room 4",
      goal: 25,
      ticketPriceCents: 1250,
      pactType: "paction",
      attendeesAnonymous: true,
      identityRevelationType: "never",
      refundBonusPercentage: 0,
      isTest: false,
      paymentType: null,
      paymentMethod: null,
    });
    expect(r.deadline).toBeInstanceOf(Date);
  });
  it("treats an empty ticket price as free", () => {
    expect(schema.parse({ ...valid, ticketPrice: "" }).ticketPriceCents).toBe(0);
  });
});

describe("title", () => {
  it.each([
    ["", "Campaign title is required"],
    ["    ", "Campaign title is required"],
    ["abcd", "Title must be at least 5 characters"],
    ["  abcd   ", "Title must be at least 5 characters"],
    ["x".repeat(101), "Title must be less than 100 characters"],
  ])("%j -> %s", (title, message) => expect(errors({ title }).title).toBe(message));
  it("accepts 5 and 100 characters", () => {
    expect(errors({ title: "abcde" }).title).toBeUndefined();
    expect(errors({ title: "x".repeat(100) }).title).toBeUndefined();
  });
});

describe("description", () => {
  it.each([
    ["", "Campaign description is required"],
    ["x".repeat(19), "Description must be at least 20 characters"],
    ["x".repeat(1001), "Description must be less than 1000 characters"],
  ])("%j -> %s", (description, message) => expect(errors({ description }).description).toBe(message));
  it("accepts 20 and 1000 characters", () => {
    expect(errors({ description: "x".repeat(20) }).description).toBeUndefined();
    expect(errors({ description: "x".repeat(1000) }).description).toBeUndefined();
  });
});

describe("logistical details", () => {
  it("is optional, at most 2000 characters", () => {
    expect(errors({ logisticalDetails: "" }).logisticalDetails).toBeUndefined();
    expect(errors({ logisticalDetails: "x".repeat(2000) }).logisticalDetails).toBeUndefined();
    expect(errors({ logisticalDetails: "x".repeat(2001) }).logisticalDetails).toBe(
      "Logistical details must be less than 2000 characters",
    );
  });
});

describe("goal", () => {
  it.each([
    ["", "Goal amount is required"],
    ["abc", "Goal amount is required"],
    ["0", "Goal must be greater than 0"],
    ["-3", "Goal must be greater than 0"],
    ["10001", "Goal cannot exceed 10,000 people"],
    ["2.5", "Goal must be a whole number"],
  ])("%j -> %s", (goal, message) => expect(errors({ goal }).goal).toBe(message));
  it("accepts 1 and 10,000", () => {
    expect(schema.parse({ ...valid, goal: "1" }).goal).toBe(1);
    expect(schema.parse({ ...valid, goal: "10000" }).goal).toBe(10000);
  });
});

describe("deadline", () => {
  const at = (ms: number) => new Date(NOW + ms).toISOString();
  it.each([
    ["", "Deadline is required"],
    ["not a date", "Deadline is required"],
    [at(24 * H - 60_000), "Deadline must be at least 24 hours from now"],
    [at(-H), "Deadline must be at least 24 hours from now"],
    [at(365 * 24 * H + 60_000), "Deadline cannot be more than 1 year from now"],
  ])("%j -> %s", (deadline, message) => expect(errors({ deadline }).deadline).toBe(message));
  it("accepts exactly 24 hours and exactly 1 year", () => {
    expect(errors({ deadline: at(24 * H) }).deadline).toBeUndefined();
    expect(errors({ deadline: at(365 * 24 * H) }).deadline).toBeUndefined();
  });
});

describe("ticket price", () => {
  it.each([
    ["abc", "Ticket price must be a valid number"],
    ["1.234", "Ticket price can have at most two decimals (cents), like 12.50"],
    ["-1", "Ticket price cannot be negative"],
    ["-0.01", "Ticket price cannot be negative"],
    ["10000.01", "Ticket price cannot exceed $10,000"],
  ])("%j -> %s", (ticketPrice, message) => expect(errors({ ticketPrice }).ticketPrice).toBe(message));
  it("accepts 0, cents and exactly $10,000", () => {
    expect(schema.parse({ ...valid, ticketPrice: "0" }).ticketPriceCents).toBe(0);
    expect(schema.parse({ ...valid, ticketPrice: "0.01" }).ticketPriceCents).toBe(1);
    expect(schema.parse({ ...valid, ticketPrice: "19.99" }).ticketPriceCents).toBe(1999);
    expect(schema.parse({ ...valid, ticketPrice: "10000" }).ticketPriceCents).toBe(1_000_000);
  });
});

describe("additional settings", () => {
  it("reveals identities immediately when anonymity is off", () => {
    expect(
      schema.parse({ ...valid, attendeesAnonymous: false, identityRevelationType: "never" })
        .identityRevelationType,
    ).toBe("immediate");
    expect(
      schema.parse({ ...valid, attendeesAnonymous: true, identityRevelationType: "onStart" })
        .identityRevelationType,
    ).toBe("onStart");
  });
  // issue 31: the organizer's own promise, on paid events only, 1–20%
  it("keeps the refund bonus only when enabled, a whole 1 to 20 percent", () => {
    const bonus = (pct: string, more: Partial<CampaignFormValues> = {}) =>
      schema.safeParse({ ...valid, refundBonusEnabled: true, refundBonusPercentage: pct, ...more });
    expect(
      schema.parse({ ...valid, refundBonusEnabled: false, refundBonusPercentage: "30" })
        .refundBonusPercentage,
    ).toBe(0);
    for (const pct of ["1", "10", "20"]) expect(bonus(pct).data?.refundBonusPercentage).toBe(Number(pct));
    for (const pct of ["0", "21", "100", "", "5.5", "-1", "ten"])
      expect(errors({ refundBonusEnabled: true, refundBonusPercentage: pct }).refundBonusPercentage).toBe(
        REFUND_BONUS_TEXTS.range,
      );
  });
  it("allows a refund bonus on paid events only (a price or a crowdfund), never on a free one", () => {
    expect(errors({ ticketPrice: "", refundBonusEnabled: true, refundBonusPercentage: "10" })).toEqual({
      refundBonusPercentage: REFUND_BONUS_TEXTS.paidOnly,
    });
    expect(errors({ ticketPrice: "0", refundBonusEnabled: true, refundBonusPercentage: "10" })).toEqual({
      refundBonusPercentage: REFUND_BONUS_TEXTS.paidOnly,
    });
    expect(schema.parse({ ...valid, ticketPrice: "", refundBonusEnabled: false }).refundBonusPercentage).toBe(
      0,
    );
    const crowdfund = {
      ...valid,
      ticketPrice: "",
      pactType: "crowdfund" as const,
      paymentType: "venmo" as const,
      paymentMethod: "sam",
    };
    expect(
      schema.parse({ ...crowdfund, refundBonusEnabled: true, refundBonusPercentage: "15" })
        .refundBonusPercentage,
    ).toBe(15);
  });
  it("drafts keep a well-formed bonus on a paid draft only", () => {
    const draft = (more: Partial<CampaignFormValues>) =>
      draftSchema.safeParse({ ...emptyCampaignForm, title: "x", ticketPrice: "5", ...more });
    expect(draft({ refundBonusEnabled: true, refundBonusPercentage: "20" }).data).toMatchObject({
      refundBonusEnabled: true,
      refundBonusPercentage: 20,
    });
    const over = draft({ refundBonusEnabled: true, refundBonusPercentage: "21" });
    expect(over.success).toBe(false);
    expect(over.error && fieldErrorsOf(over.error).refundBonusPercentage).toBe(REFUND_BONUS_TEXTS.range);
    // a free draft stores none (the form offers none on a free event)
    for (const ticketPrice of ["", "0"])
      expect(
        draft({ ticketPrice, refundBonusEnabled: true, refundBonusPercentage: "10" }).data,
      ).toMatchObject({
        refundBonusEnabled: false,
        refundBonusPercentage: 0,
      });
    expect(draft({ refundBonusEnabled: false, refundBonusPercentage: "99" }).data).toMatchObject({
      refundBonusEnabled: false,
      refundBonusPercentage: 0,
    });
  });
  it("requires payment instructions for a crowdfund and drops them for a paction", () => {
    expect(errors({ pactType: "crowdfund" }).paymentType).toBe("Please choose a payment type");
    expect(errors({ pactType: "crowdfund", paymentType: "venmo" }).paymentMethod).toBe(
      "Payment handle is required",
    );
    expect(
      schema.parse({ ...valid, pactType: "crowdfund", paymentType: "venmo", paymentMethod: "@sam" }),
    ).toMatchObject({ paymentType: "venmo", paymentMethod: "sam" });
    expect(
      schema.parse({ ...valid, pactType: "paction", paymentType: "venmo", paymentMethod: "sam" }),
    ).toMatchObject({ paymentType: null, paymentMethod: null });
  });
  it("rejects unknown enum values", () => {
    expect(schema.safeParse({ ...valid, pactType: "pyramid" }).success).toBe(false);
    expect(schema.safeParse({ ...valid, identityRevelationType: "sometimes" }).success).toBe(false);
  });
});

describe("draft schema", () => {
  it("needs one of title, description, goal or deadline", () => {
    const r = draftSchema.safeParse({ ...emptyCampaignForm, ticketPrice: "5", logisticalDetails: "x" });
    expect(r.success).toBe(false);
    expect(r.error?.issues[0].message).toBe("Please fill in some content before saving as draft.");
    expect(draftSchema.safeParse({ ...emptyCampaignForm, title: "  " }).success).toBe(false);
  });
  it.each([{ title: "A" }, { description: "x" }, { goal: "3" }, { deadline: "2027-01-01T00:00:00Z" }])(
    "saves with only %j",
    (only) => {
      expect(draftSchema.safeParse({ ...emptyCampaignForm, ...only }).success).toBe(true);
    },
  );
  it.each([
    "+010000-01-01T00:00:00Z",
    "0000-06-01T00:00:00Z",
    "-000001-01-01T00:00:00Z",
    "1970-01-01T00:00:00Z",
  ])(
    "refuses the deadline %s with a message (a year the form cannot show made the draft page fail)",
    (deadline) => {
      const r = draftSchema.safeParse({ ...emptyCampaignForm, title: "x", deadline });
      expect(r.success).toBe(false);
      expect(r.error?.issues[0].message).toBe("Deadline must be a valid date");
    },
  );
  it("still checks the values it is given", () => {
    expect(draftSchema.safeParse({ ...emptyCampaignForm, title: "x", goal: "0" }).success).toBe(false);
    expect(draftSchema.safeParse({ ...emptyCampaignForm, title: "x".repeat(101) }).success).toBe(false);
    expect(draftSchema.parse({ ...emptyCampaignForm, title: "x", ticketPrice: "2.5" }).ticketPriceCents).toBe(
      250,
    );
  });
});

describe("home query", () => {
  it("falls back to all / page 1 for anything unknown", () => {
    const plain = { sort: "newest", q: "" };
    expect(homeQuerySchema.parse({})).toEqual({ filter: "all", page: 1, ...plain });
    expect(homeQuerySchema.parse({ filter: "ending", page: "3" })).toEqual({
      filter: "ending",
      page: 3,
      ...plain,
    });
    expect(homeQuerySchema.parse({ filter: "nope", page: "-2" })).toEqual({
      filter: "all",
      page: 1,
      ...plain,
    });
    expect(homeQuerySchema.parse({ filter: ["active", "x"], page: "abc" })).toEqual({
      filter: "all",
      page: 1,
      ...plain,
    });
  });
  it("reads a sort and a search (issue 34); an unknown sort or a repeated q falls back", () => {
    expect(homeQuerySchema.parse({ sort: "nearly", q: "  jazz night " })).toMatchObject({
      sort: "nearly",
      q: "jazz night",
    });
    expect(homeQuerySchema.parse({ sort: "random", q: ["a", "b"] })).toMatchObject({ sort: "newest", q: "" });
    expect(homeQuerySchema.parse({ q: "x".repeat(500) }).q).toHaveLength(100);
  });
});
