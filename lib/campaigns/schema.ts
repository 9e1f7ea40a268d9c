import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import {
  TITLE_MIN,
  TITLE_MAX,
  DESCRIPTION_MIN,
  DESCRIPTION_MAX,
  LOGISTICS_MAX,
  DEADLINE_MIN_MS,
  DEADLINE_MAX_MS,
  PAYMENT_HANDLE_MAX,
  REFUND_BONUS_DEFAULT,
  REJECT_REASON_MAX,
} from "@/lib/campaigns/limits";
import { REJECT_TEXT } from "@/lib/campaigns/texts";
import { isCrowdfund, isPaidEvent } from "@/lib/events/lifecycle";
import {
  addressField,
  areaField,
  bool,
  fail,
  gapMessage,
  timesInOrder,
  whenWhere,
  onlineUrlField,
  optionalText,
  optionalTime,
  parseDate,
  parseGoal,
  parseCapacity,
  CAPACITY_TEXTS,
  parseTicketPrice,
  readRefundBonus,
  readTimesInZone,
  text,
  timeZoneField,
  venueField,
} from "@/lib/campaigns/fields";

/* ------------------------------------------------------------------------------------------------
 * Limits (SPEC §5, §9). The database CHECK constraints repeat the same numbers.
 * ---------------------------------------------------------------------------------------------- */

export const PACT_TYPES = ["paction", "crowdfund"] as const;
export const REVELATION_TYPES = ["never", "onStart", "immediate"] as const;
export const PAYMENT_TYPES = ["venmo", "paypal", "other"] as const;

/** Fields on step 1 ("Event Details"); the rest are on step 2 ("Additional Settings"). */
export const STEP1_FIELDS = [
  "title",
  "description",
  "goal",
  "deadline",
  "ticketPrice",
  "logisticalDetails",
] as const;

/**
 * The form's values as the client holds them (text inputs are strings). Times are wall-clock
 * datetime-local values in `timeZone` ("2026-12-01T19:00"), or ISO instants from other callers.
 */
export type CampaignFormValues = {
  title: string;
  description: string;
  logisticalDetails: string;
  goal: string;
  deadline: string;
  startsAt: string;
  endsAt: string;
  timeZone: string;
  venue: string;
  address: string;
  onlineUrl: string;
  area: string;
  addressPrivate: boolean;
  ticketPrice: string;
  pactType: (typeof PACT_TYPES)[number];
  attendeesAnonymous: boolean;
  identityRevelationType: (typeof REVELATION_TYPES)[number];
  refundBonusEnabled: boolean;
  refundBonusPercentage: string;
  isTest: boolean;
  acceptAfterThreshold: boolean;
  /** issue 20: the most people who may be in; "" for no limit */
  capacity: string;
  /** issue 21: may go ahead from 80% of the goal */
  earlyGoAhead: boolean;
  paymentType: "" | (typeof PAYMENT_TYPES)[number];
  paymentMethod: string;
};

export const emptyCampaignForm: CampaignFormValues = {
  title: "",
  description: "",
  logisticalDetails: "",
  goal: "",
  deadline: "",
  startsAt: "",
  endsAt: "",
  timeZone: "", // the form fills in the browser's zone; the schema reads "" as UTC
  venue: "",
  address: "",
  onlineUrl: "",
  area: "",
  addressPrivate: false,
  ticketPrice: "",
  pactType: "paction",
  attendeesAnonymous: true,
  identityRevelationType: "never",
  refundBonusEnabled: false,
  refundBonusPercentage: String(REFUND_BONUS_DEFAULT),
  isTest: false,
  acceptAfterThreshold: false,
  capacity: "",
  earlyGoAhead: false,
  paymentType: "",
  paymentMethod: "",
};

export const title = text.pipe(
  z
    .string()
    .min(1, { error: "Campaign title is required" })
    .min(TITLE_MIN, { error: `Title must be at least ${TITLE_MIN} characters` })
    .max(TITLE_MAX, { error: `Title must be less than ${TITLE_MAX} characters` }),
);

export const description = text.pipe(
  z
    .string()
    .min(1, { error: "Campaign description is required" })
    .min(DESCRIPTION_MIN, { error: `Description must be at least ${DESCRIPTION_MIN} characters` })
    .max(DESCRIPTION_MAX, { error: `Description must be less than ${DESCRIPTION_MAX} characters` }),
);

export const logisticalDetails = optionalText.pipe(
  z
    .string()
    .max(LOGISTICS_MAX, { error: `Logistical details must be less than ${LOGISTICS_MAX} characters` }),
);

const goal = text.transform(parseGoal);
const ticketPrice = text.transform(parseTicketPrice);

const deadline = (now: () => number) =>
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

/** The create form's fields, each parsed and checked on its own. */
const createFields = (now: () => number) =>
  z.object({
    title,
    description,
    logisticalDetails,
    goal,
    deadline: deadline(now),
    startsAt: optionalTime("The start", now),
    endsAt: optionalTime("The end", now),
    timeZone: timeZoneField,
    venue: venueField,
    address: addressField,
    onlineUrl: onlineUrlField,
    area: areaField,
    addressPrivate: bool(false),
    ticketPrice,
    pactType: z
      .enum(PACT_TYPES)
      .optional()
      .transform((v) => v ?? "paction"),
    attendeesAnonymous: bool(true),
    identityRevelationType: z
      .enum(REVELATION_TYPES)
      .optional()
      .transform((v) => v ?? "never"),
    refundBonusEnabled: bool(false),
    refundBonusPercentage: optionalText,
    isTest: bool(false),
    acceptAfterThreshold: bool(false),
    capacity: optionalText.transform(parseCapacity),
    earlyGoAhead: bool(false),
    paymentType: z.union([z.enum(PAYMENT_TYPES), z.literal(""), z.null()]).optional(),
    paymentMethod: optionalText.pipe(
      z.string().max(PAYMENT_HANDLE_MAX, {
        error: `Payment handle must be less than ${PAYMENT_HANDLE_MAX} characters`,
      }),
    ),
  });

type CreateFields = z.output<ReturnType<typeof createFields>>;

/** The checks across fields (bonus, times, capacity, a crowdfund's payment), then the event's columns. */
function eventColumns(v: CreateFields, ctx: z.RefinementCtx) {
  // issue 31: the organizer's own promise, on paid events only, 1–20%
  const bonus = readRefundBonus(
    v.refundBonusEnabled,
    v.refundBonusPercentage,
    isPaidEvent({ pactType: v.pactType, ticketPriceCents: v.ticketPrice }),
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
    logisticalDetails: v.logisticalDetails || null,
    goal: v.goal,
    deadline: v.deadline,
    ...whenWhere(v),
    ticketPriceCents: v.ticketPrice,
    pactType: v.pactType,
    attendeesAnonymous: v.attendeesAnonymous,
    // SPEC §4: without anonymity, identities are revealed immediately.
    identityRevelationType: v.attendeesAnonymous ? v.identityRevelationType : ("immediate" as const),
    refundBonusPercentage,
    isTest: v.isTest,
    acceptAfterThreshold: v.acceptAfterThreshold,
    capacity: crowdfund ? null : v.capacity,
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
