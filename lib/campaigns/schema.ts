import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { REJECT_REASON_MAX } from "@/lib/campaigns/limits";
import { EVENT_FIELDS } from "@/lib/campaigns/event-fields";
import { PAYMENT_TYPES, type FieldDef, type Now } from "@/lib/campaigns/event-field-kit";
import { REJECT_TEXT } from "@/lib/campaigns/texts";
import { isCrowdfund, isPaidEvent } from "@/lib/events/lifecycle";
import { readDeposit } from "@/lib/campaigns/deposit-fields";
import { groupsRefusal } from "@/lib/events/seats";
import {
  timesInOrder,
  whenWhere,
  CAPACITY_TEXTS,
  readRefundBonus,
  readTimesInZone,
} from "@/lib/campaigns/fields";

export { PACT_TYPES, PAYMENT_TYPES, REVELATION_TYPES } from "@/lib/campaigns/event-field-kit";

/* ------------------------------------------------------------------------------------------------
 * Built from the event's fields (lib/campaigns/event-fields.ts, issue 33). Limits: SPEC §5, §9; the
 * database CHECK constraints repeat the same numbers.
 * ---------------------------------------------------------------------------------------------- */

type Defs = typeof EVENT_FIELDS;
export type EventFieldName = keyof Defs;
export const EVENT_FIELD_NAMES = Object.keys(EVENT_FIELDS) as EventFieldName[];
export const eventField = (name: EventFieldName): FieldDef => EVENT_FIELDS[name];

/**
 * The form's values as the client holds them (text inputs are strings). Times are wall-clock
 * datetime-local values in `timeZone` ("2026-12-01T19:00"), or ISO instants from other callers.
 */
export type CampaignFormValues = { [K in EventFieldName]: Defs[K]["empty"] };
type Editable = { [K in EventFieldName]: Defs[K] extends { edit: object } ? K : never }[EventFieldName];
export type TextColumn = {
  [K in EventFieldName]: Defs[K] extends { column: "text" } ? K : never;
}[EventFieldName];

function collect<T>(read: (def: FieldDef, name: EventFieldName) => T | undefined): Record<string, T> {
  const out: Record<string, T> = {};
  for (const name of EVENT_FIELD_NAMES) {
    const v = read(eventField(name), name);
    if (v !== undefined) out[name] = v;
  }
  return out;
}

export const emptyCampaignForm = collect((d) => d.empty) as CampaignFormValues;
/** Fields on step 1 ("Event Details"); the rest are on step 2 ("Additional Settings"). */
export const STEP1_FIELDS = EVENT_FIELD_NAMES.filter((n) => eventField(n).step === 1);
/** The create schema's fields, each parsed on its own. */
export const createShape = (now: Now) =>
  collect((d) => d.create(now)) as { [K in EventFieldName]: ReturnType<Defs[K]["create"]> };
/** The draft schema's fields: all optional, but well-formed. */
export const draftShape = () => collect((d) => d.draft) as { [K in EventFieldName]: Defs[K]["draft"] };
/** The fields editing may change. */
export const editShape = (now: Now) =>
  collect((d) => d.edit?.parse(now)) as {
    [K in Editable]: Defs[K] extends { edit: { parse: (now: Now) => infer P } } ? P : never;
  };

/** Optional text stored as is, null when empty. */
export const TEXT_COLUMNS = EVENT_FIELD_NAMES.filter((n) => eventField(n).column === "text") as TextColumn[];
export const textColumns = (v: Record<TextColumn, string>) =>
  Object.fromEntries(TEXT_COLUMNS.map((k) => [k, v[k] || null])) as Record<TextColumn, string | null>;
export const textColumnSelect = Object.fromEntries(TEXT_COLUMNS.map((k) => [k, true])) as Record<
  TextColumn,
  true
>;
/** A stored row's text columns as form values. */
export const textFormValues = (row: Record<TextColumn, string | null>) =>
  Object.fromEntries(TEXT_COLUMNS.map((k) => [k, row[k] ?? ""])) as Record<TextColumn, string>;
/** What the event page shows of them, in order: [label, text]; logistics has its own card. */
export const pageTexts = (row: Record<TextColumn, string | null>) =>
  TEXT_COLUMNS.flatMap((k) => {
    const label = eventField(k).page;
    const value = row[k];
    return label && value ? [[label, value] as const] : [];
  });

/** The create form's fields, each parsed and checked on its own. */
const createFields = (now: Now) => z.object(createShape(now));

type CreateFields = z.output<ReturnType<typeof createFields>>;

/** Issue 37: people per commitment where the event takes groups (lib/events/seats), else 1. */
const seatsColumn = (v: CreateFields, depositCents: number) =>
  groupsRefusal({ pactType: v.pactType, ticketPriceCents: v.ticketPrice, depositCents }) ? 1 : v.maxSeats;

/** The checks across fields (bonus, times, capacity, a crowdfund's payment), then the event's columns. */
function eventColumns(v: CreateFields, ctx: z.RefinementCtx) {
  // issue 31: the organizer's own promise, on events with a ticket price (or a crowdfund), 1–20%
  const bonus = readRefundBonus(
    v.refundBonusEnabled,
    v.refundBonusPercentage,
    isPaidEvent({ pactType: v.pactType, ticketPriceCents: v.ticketPrice, depositCents: 0 }),
  );
  if (!bonus.ok) {
    ctx.issues.push({
      code: "custom",
      message: bonus.message,
      path: ["refundBonusPercentage"],
      input: v.refundBonusPercentage,
    });
    return z.NEVER;
  }
  const refundBonusPercentage = bonus.percent;
  if (!timesInOrder(v, ctx)) return z.NEVER;
  const crowdfund = isCrowdfund(v);
  if (v.capacity !== null && !crowdfund && v.capacity < v.goal) {
    ctx.issues.push({
      code: "custom",
      message: CAPACITY_TEXTS.belowGoal(v.goal),
      path: ["capacity"],
      input: v.capacity,
    });
    return z.NEVER;
  }
  // issue 36: a show-up deposit, on a paction with a start time and an in-person place
  const place = whenWhere(v);
  const deposit = readDeposit(v, { pactType: v.pactType, ...place });
  if (!deposit.ok) {
    ctx.issues.push({ code: "custom", message: deposit.message, path: [deposit.field], input: undefined });
    return z.NEVER;
  }
  if (crowdfund && !v.paymentType) {
    ctx.issues.push({
      code: "custom",
      message: "Please choose a payment type",
      path: ["paymentType"],
      input: v.paymentType,
    });
    return z.NEVER;
  }
  if (crowdfund && !v.paymentMethod) {
    ctx.issues.push({
      code: "custom",
      message: "Payment handle is required",
      path: ["paymentMethod"],
      input: v.paymentMethod,
    });
    return z.NEVER;
  }
  return {
    title: v.title,
    description: v.description,
    ...textColumns(v),
    goal: v.goal,
    deadline: v.deadline,
    ...place,
    ticketPriceCents: v.ticketPrice,
    depositCents: deposit.depositCents,
    depositGraceHours: deposit.depositGraceHours,
    pactType: v.pactType,
    attendeesAnonymous: v.attendeesAnonymous,
    // SPEC §4: without anonymity, identities are revealed immediately.
    identityRevelationType: v.attendeesAnonymous ? v.identityRevelationType : ("immediate" as const),
    refundBonusPercentage,
    isTest: v.isTest,
    acceptAfterThreshold: v.acceptAfterThreshold,
    capacity: crowdfund ? null : v.capacity,
    // issue 37: groups where the event takes them (free pactions for now), else one person each
    maxSeats: seatsColumn(v, deposit.depositCents),
    earlyGoAhead: crowdfund ? false : v.earlyGoAhead,
    // Payment instructions belong to crowdfunds only (SPEC §3).
    paymentType: crowdfund ? (v.paymentType as (typeof PAYMENT_TYPES)[number]) : null,
    paymentMethod: crowdfund ? v.paymentMethod.replace(/^@/, "") : null,
  };
}

/**
 * The create-event schema, shared by the form (messages on each step) and the server action.
 * `now` is injectable so the deadline window can be tested at its edges.
 */
export function createCampaignSchema(now: () => number = Date.now) {
  return z.preprocess(readTimesInZone, createFields(now).transform(eventColumns));
}

/** Field → first message, as the form shows them. */
export function fieldErrorsOf(error: z.ZodError): Record<string, string> {
  const out: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = String(issue.path[0] ?? "_");
    out[key] ??= issue.message;
  }
  return out;
}

/* ------------------------------------------------------------------------------------------------
 * Moderation
 * ---------------------------------------------------------------------------------------------- */
export const approvalInputSchema = z
  .object({
    campaignId: z.string().trim().min(1).max(40),
    approvalStatus: z.enum(["approved", "rejected"]),
    /** why an event is rejected: required then, emailed to the organizer (escaped like every email text) */
    reason: z
      .string(REJECT_TEXT.reasonRequired)
      .trim()
      .max(REJECT_REASON_MAX, REJECT_TEXT.reasonTooLong)
      .optional(),
  })
  .refine((v) => v.approvalStatus !== "rejected" || Boolean(v.reason), {
    message: REJECT_TEXT.reasonRequired,
    path: ["reason"],
  });
export type ApprovalInput = z.input<typeof approvalInputSchema>;

/** A parsed, valid new event (what the review dialog summarises and the service stores). */
export type CreateCampaignInput = z.output<ReturnType<typeof createCampaignSchema>>;
