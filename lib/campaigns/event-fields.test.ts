import { describe, expect, it, vi } from "vitest";
import { z } from "zod";

/*
 * Issue 33: one definition drives the form values, the create, draft and edit schemas and the stored
 * text columns. A field added to the definition (here through a mock) shows up in all of them.
 */
vi.mock("@/lib/campaigns/event-fields", async (importOriginal) => {
  const real = await importOriginal<typeof import("@/lib/campaigns/event-fields")>();
  const { capped, same } = await import("@/lib/campaigns/event-field-kit");
  return {
    ...real,
    EVENT_FIELDS: {
      ...real.EVENT_FIELDS,
      // a new optional text on step 2, stored as is and shown on the event page
      addedNote: {
        empty: "",
        step: 2,
        ui: { kind: "text", label: "Added note" },
        ...same(capped(50, "Added note")),
        column: "text",
        page: "Added note",
      },
    },
  };
});

const {
  EVENT_FIELD_NAMES,
  STEP1_FIELDS,
  TEXT_COLUMNS,
  createCampaignSchema,
  createShape,
  draftShape,
  editShape,
  emptyCampaignForm,
  fieldErrorsOf,
  pageTexts,
  textColumnSelect,
} = await import("@/lib/campaigns/schema");
const { draftSchema } = await import("@/lib/drafts/schema");

const NOW = new Date("2026-11-21T12:00:00Z").getTime();
const valid = {
  ...emptyCampaignForm,
  title: "Board game night",
  description: "Bring your favourite games and meet new people.",
  goal: "25",
  deadline: new Date(NOW + 7 * 24 * 3600_000).toISOString(),
  addedNote: "  Bring snacks ",
};

describe("the event's fields, defined once", () => {
  it("the form values, step 1 and the three schemas list exactly the definition's fields", () => {
    expect(Object.keys(emptyCampaignForm)).toEqual(EVENT_FIELD_NAMES);
    expect(Object.keys(createShape(() => NOW))).toEqual(EVENT_FIELD_NAMES);
    expect(Object.keys(draftShape())).toEqual(EVENT_FIELD_NAMES);
    // SPEC §5's first step; the rest (and the mocked field) are on step 2
    expect(STEP1_FIELDS).toEqual(
      expect.arrayContaining(["title", "description", "goal", "deadline", "ticketPrice"]),
    );
    for (const later of ["pactType", "capacity", "startsAt", "addedNote"])
      expect(STEP1_FIELDS).not.toContain(later);
    // editing changes the words, the place, the times and (until someone commits) the money; never the
    // pact type, anonymity or a crowdfund's payment handle
    const editable = Object.keys(editShape(() => NOW));
    expect(editable).toContain("addedNote");
    for (const never of [
      "pactType",
      "attendeesAnonymous",
      "identityRevelationType",
      "paymentType",
      "paymentMethod",
    ])
      expect(editable).not.toContain(never);
  });

  it("a field added to the definition is in the form, created, drafted, edited and shown", () => {
    expect(emptyCampaignForm).toHaveProperty("addedNote", "");
    expect(TEXT_COLUMNS[0]).toBe("logisticalDetails");
    expect(TEXT_COLUMNS.at(-1)).toBe("addedNote");
    expect(textColumnSelect).toMatchObject({ logisticalDetails: true, addedNote: true });

    const created = createCampaignSchema(() => NOW).parse(valid);
    expect(created).toMatchObject({ addedNote: "Bring snacks", logisticalDetails: null });
    const tooLong = createCampaignSchema(() => NOW).safeParse({ ...valid, addedNote: "x".repeat(51) });
    expect(tooLong.success ? {} : fieldErrorsOf(tooLong.error)).toEqual({
      addedNote: "Added note must be less than 50 characters",
    });

    expect(draftSchema.parse({ title: "A draft", addedNote: "Bring snacks" })).toMatchObject({
      addedNote: "Bring snacks",
    });
    expect(draftSchema.parse({ title: "A draft" })).toMatchObject({ addedNote: null });

    const edited = z.object(editShape(() => NOW)).parse({ ...valid, deadline: "" });
    expect(edited).toMatchObject({ addedNote: "Bring snacks" });

    // the mocked field is not in the types
    const row = { logisticalDetails: "Room 4", addedNote: "Bring snacks" } as never;
    expect(pageTexts(row)).toEqual([["Added note", "Bring snacks"]]);
  });
});
