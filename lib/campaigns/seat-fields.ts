import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { optionalText } from "@/lib/campaigns/fields";
import { EDIT_NUMERIC, type FieldDef } from "@/lib/campaigns/event-field-kit";
import { SEAT_TEXTS, SEATS_DEFAULT, SEATS_MAX } from "@/lib/events/seats";

/**
 * Issue 37: "People per commitment" as the create and edit forms ask for it (Campaign.maxSeats).
 * Which events take groups is lib/events/seats's rule (groupsRefusal); the create and edit steps
 * store 1 where it refuses them.
 */

/** "" → the default (4); else a whole number of people, 1 to 10. */
export function parseMaxSeats(raw: string, ctx: z.RefinementCtx): number {
  if (raw === "") return SEATS_DEFAULT;
  const n = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isInteger(n) || n < 1 || n > SEATS_MAX) {
    ctx.addIssue({ code: "custom", message: SEAT_TEXTS.formInvalid });
    return z.NEVER;
  }
  return n;
}

export const SEAT_FIELDS = {
  maxSeats: {
    empty: String(SEATS_DEFAULT),
    step: 2,
    ui: {
      kind: "number",
      label: "People per commitment",
      hint: `Up to this many people can commit together — someone and their friends, each counted and each with a ticket. 1 to ${SEATS_MAX}; 1 means everyone commits alone.`,
      attrs: { inputMode: "numeric", min: 1, max: SEATS_MAX, step: 1 },
    },
    create: () => optionalText.transform(parseMaxSeats),
    // a draft keeps what was typed if it is a number of people in range, else the default
    draft: optionalText.transform((raw) => {
      const n = Number(raw);
      return /^\d+$/.test(raw) && n >= 1 && n <= SEATS_MAX ? n : SEATS_DEFAULT;
    }),
    edit: {
      // absent (an older form) keeps the stored value
      parse: () => optionalText.transform((raw, ctx) => (raw === "" ? undefined : parseMaxSeats(raw, ctx))),
      lockedBy: "money",
      ui: { ...EDIT_NUMERIC, label: "People per commitment" },
    },
  },
} satisfies Record<string, FieldDef>;
