import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { DEADLINE_MAX_MS, DEADLINE_MIN_MS, GOAL_MAX, LOGISTICS_MAX } from "@/lib/campaigns/limits";
import { bool, fail, gapMessage, optionalText, parseDate, text } from "@/lib/campaigns/fields";

/*
 * What the event's field list (lib/campaigns/event-fields.ts) is written in: the shape of one field,
 * and the parsers and pieces several fields share.
 */

export const PACT_TYPES = ["paction", "crowdfund"] as const;
export const REVELATION_TYPES = ["never", "onStart", "immediate"] as const;
export const PAYMENT_TYPES = ["venmo", "paypal", "other"] as const;

export type InputKind =
  "text" | "textarea" | "number" | "price" | "datetime" | "url" | "toggle" | "select" | "cards";

/** How a form draws a field: its label, hint (a toggle's description), placeholder and input. */
export type FieldUi = {
  kind: InputKind;
  label: string;
  hint?: string;
  placeholder?: string;
  attrs?: {
    maxLength?: number;
    min?: number;
    max?: number;
    step?: number;
    rows?: number;
    inputMode?: "numeric" | "decimal";
  };
  /** a select's or the cards' choices: value, label and (cards) a line about it */
  options?: readonly (readonly [value: string, label: string, text?: string])[];
};

export type Now = () => number;
export type FieldDef = {
  empty: unknown;
  step: 1 | 2;
  ui: FieldUi;
  create: (now: Now) => z.ZodType;
  draft: z.ZodType;
  /** what editing accepts; `lockedBy` names the rule that makes it read-only; `ui` overrides the edit form's look */
  edit?: { parse: (now: Now) => z.ZodType; lockedBy?: "money" | "deadline"; ui?: Partial<FieldUi> };
  /** optional text stored as is: copied by create, drafts, edit; shown on the event page under `page` */
  column?: "text";
  page?: string;
};

export const capped = (max: number, label: string) =>
  optionalText.pipe(z.string().max(max, { error: `${label} must be less than ${max} characters` }));
export const required = (label: string, min: number, max: number) =>
  text.pipe(
    z
      .string()
      .min(1, { error: `Campaign ${label.toLowerCase()} is required` })
      .min(min, { error: `${label} must be at least ${min} characters` })
      .max(max, { error: `${label} must be less than ${max} characters` }),
  );
export const logistics = capped(LOGISTICS_MAX, "Logistical details");
export const orNull = <T>(parse: (raw: string, ctx: z.RefinementCtx) => T) =>
  optionalText.transform((raw, ctx) => (raw === "" ? null : parse(raw, ctx)));
/** A deadline as typed (a draft's and an edit's: the edit rules check the window) */
export const anyDeadline = orNull((raw, ctx) => {
  const gap = gapMessage(raw, "This deadline");
  if (gap) return fail(ctx, gap);
  return parseDate(raw) ?? fail(ctx, "Deadline must be a valid date");
});
export const deadline = (now: Now) =>
  text.transform((raw, ctx) => {
    if (raw === "") return fail(ctx, "Deadline is required");
    const gap = gapMessage(raw, "This deadline");
    if (gap) return fail(ctx, gap);
    const d = parseDate(raw);
    if (!d) return fail(ctx, "Deadline is required");
    const t = now();
    if (d.getTime() < t + DEADLINE_MIN_MS) return fail(ctx, "Deadline must be at least 24 hours from now");
    if (d.getTime() > t + DEADLINE_MAX_MS) return fail(ctx, "Deadline cannot be more than 1 year from now");
    return d;
  });
export const same = <T extends z.ZodType>(parse: T) => ({
  create: () => parse,
  draft: parse,
  edit: { parse: () => parse },
});
export const toggle = (fallback: boolean, label: string, hint: string) => ({
  empty: fallback,
  step: 2 as const,
  ui: { kind: "toggle" as const, label, hint },
  create: () => bool(fallback),
  draft: bool(fallback),
});
export const choice = <T extends readonly [string, ...string[]]>(values: T, fallback: T[number]) => ({
  empty: fallback,
  create: () =>
    z
      .enum(values)
      .optional()
      .transform((v) => v ?? fallback),
  draft: z.enum(values).optional().nullable(),
});
/** a number of people, as the create form asks for it */
export const COUNT = { inputMode: "numeric" as const, min: 1, max: GOAL_MAX, step: 1 };
/** the edit form asks for numbers in a text input */
export const EDIT_NUMERIC = { kind: "text" as const, attrs: { inputMode: "numeric" as const } };
