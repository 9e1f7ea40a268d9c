import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import {
  TITLE_MIN,
  TITLE_MAX,
  DESCRIPTION_MIN,
  DESCRIPTION_MAX,
  LOGISTICS_MAX,
  GOAL_MAX,
  TICKET_PRICE_MAX_DOLLARS,
  DEADLINE_MIN_MS,
  DEADLINE_MAX_MS,
  PAYMENT_HANDLE_MAX,
  REFUND_BONUS_DEFAULT,
  REFUND_BONUS_MAX,
} from "@/lib/campaigns/limits";
import { DRAFT_EMPTY } from "@/lib/campaigns/texts";
import { isCrowdfund } from "@/lib/campaigns/lifecycle";

/* ------------------------------------------------------------------------------------------------
 * Limits (SPEC §5, §9). The database CHECK constraints repeat the same numbers.
 * ---------------------------------------------------------------------------------------------- */

const PACT_TYPES = ["paction", "crowdfund"] as const;
const REVELATION_TYPES = ["never", "onStart", "immediate"] as const;
const PAYMENT_TYPES = ["venmo", "paypal", "other"] as const;

/** Fields on step 1 ("Event Details"); the rest are on step 2 ("Additional Settings"). */
export const STEP1_FIELDS = [
  "title",
  "description",
  "goal",
  "deadline",
  "ticketPrice",
  "logisticalDetails",
] as const;

/** The form's values as the client holds them (text inputs are strings; deadline is an ISO instant or ""). */
export type CampaignFormValues = {
  title: string;
  description: string;
  logisticalDetails: string;
  goal: string;
  deadline: string;
  ticketPrice: string;
  pactType: (typeof PACT_TYPES)[number];
  attendeesAnonymous: boolean;
  identityRevelationType: (typeof REVELATION_TYPES)[number];
  refundBonusEnabled: boolean;
  refundBonusPercentage: string;
  isTest: boolean;
  acceptAfterThreshold: boolean;
  paymentType: "" | (typeof PAYMENT_TYPES)[number];
  paymentMethod: string;
};

export const emptyCampaignForm: CampaignFormValues = {
  title: "",
  description: "",
  logisticalDetails: "",
  goal: "",
  deadline: "",
  ticketPrice: "",
  pactType: "paction",
  attendeesAnonymous: true,
  identityRevelationType: "never",
  refundBonusEnabled: false,
  refundBonusPercentage: String(REFUND_BONUS_DEFAULT),
  isTest: false,
  acceptAfterThreshold: false,
  paymentType: "",
  paymentMethod: "",
};

/* ------------------------------------------------------------------------------------------------
 * Field schemas. Inputs arrive as strings from the form, but numbers are accepted from other callers.
 * ---------------------------------------------------------------------------------------------- */
const text = z.union([z.string(), z.number()]).transform((v) => String(v).trim());
// .optional() (not a z.undefined() member) is what lets zod 4 accept the key being absent: an
// omitted field was otherwise refused with "Invalid input: expected nonoptional".
const optionalText = z
  .union([z.string(), z.number(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? "" : String(v).trim()));

const fail = (ctx: z.RefinementCtx, message: string) => {
  ctx.issues.push({ code: "custom", message, input: undefined });
  return z.NEVER;
};

const title = text.pipe(
  z
    .string()
    .min(1, { error: "Campaign title is required" })
    .min(TITLE_MIN, { error: `Title must be at least ${TITLE_MIN} characters` })
    .max(TITLE_MAX, { error: `Title must be less than ${TITLE_MAX} characters` }),
);

const description = text.pipe(
  z
    .string()
    .min(1, { error: "Campaign description is required" })
    .min(DESCRIPTION_MIN, { error: `Description must be at least ${DESCRIPTION_MIN} characters` })
    .max(DESCRIPTION_MAX, { error: `Description must be less than ${DESCRIPTION_MAX} characters` }),
);

const logisticalDetails = optionalText.pipe(
  z
    .string()
    .max(LOGISTICS_MAX, { error: `Logistical details must be less than ${LOGISTICS_MAX} characters` }),
);

/** Goal: a whole number of people, 1..10,000. */
function parseGoal(raw: string, ctx: z.RefinementCtx): number {
  if (raw === "" || !/^-?\d+(\.\d+)?$/.test(raw)) return fail(ctx, "Goal amount is required");
  const n = Number(raw);
  if (n <= 0) return fail(ctx, "Goal must be greater than 0");
  if (n > GOAL_MAX) return fail(ctx, "Goal cannot exceed 10,000 people");
  if (!Number.isInteger(n)) return fail(ctx, "Goal must be a whole number");
  return n;
}

/** Ticket price in dollars (two decimals at most) to integer cents; empty means free. */
function parseTicketPrice(raw: string, ctx: z.RefinementCtx): number {
  if (raw === "") return 0;
  const clean = raw.replace(/^\$/, "");
  if (!/^-?\d*(\.\d*)?$/.test(clean) || !/\d/.test(clean))
    return fail(ctx, "Ticket price must be a valid number");
  const n = Number(clean);
  if (n < 0) return fail(ctx, "Ticket price cannot be negative");
  if (n > TICKET_PRICE_MAX_DOLLARS) return fail(ctx, "Ticket price cannot exceed $10,000");
  if (!/^\d*(\.\d{0,2})?$/.test(clean)) return fail(ctx, "Ticket price must be a valid number");
  return Math.round(n * 100);
}

/**
 * A date as typed, or null. Only years 2000–9999: a stored year 10000 or ≤ 0 made every later load of
 * the draft's form fail (ISO strings of such years are "+010000-…"), so they are refused on the way in.
 */
function parseDate(raw: string): Date | null {
  if (raw === "") return null;
  const d = new Date(raw);
  if (Number.isNaN(d.getTime())) return null;
  const year = d.getUTCFullYear();
  return year >= 2000 && year <= 9999 ? d : null;
}

const goal = text.transform(parseGoal);
const ticketPrice = text.transform(parseTicketPrice);

const deadline = (now: () => number) =>
  text.transform((raw, ctx) => {
    if (raw === "") return fail(ctx, "Deadline is required");
    const d = parseDate(raw);
    if (!d) return fail(ctx, "Deadline is required");
    const t = now();
    if (d.getTime() < t + DEADLINE_MIN_MS) return fail(ctx, "Deadline must be at least 24 hours from now");
    if (d.getTime() > t + DEADLINE_MAX_MS) return fail(ctx, "Deadline cannot be more than 1 year from now");
    return d;
  });

const bool = (fallback: boolean) =>
  z
    .boolean()
    .optional()
    .transform((v) => v ?? fallback);

/**
 * The create-event schema, shared by the form (messages on each step) and the server action.
 * `now` is injectable so the deadline window can be tested at its edges.
 */
export function createCampaignSchema(now: () => number = Date.now) {
  return z
    .object({
      title,
      description,
      logisticalDetails,
      goal,
      deadline: deadline(now),
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
      paymentType: z.union([z.enum(PAYMENT_TYPES), z.literal(""), z.null()]).optional(),
      paymentMethod: optionalText.pipe(
        z.string().max(PAYMENT_HANDLE_MAX, {
          error: `Payment handle must be less than ${PAYMENT_HANDLE_MAX} characters`,
        }),
      ),
    })
    .transform((v, ctx) => {
      let refundBonusPercentage = 0;
      if (v.refundBonusEnabled) {
        const n = Number(v.refundBonusPercentage);
        if (!/^\d+$/.test(v.refundBonusPercentage) || n < 1 || n > REFUND_BONUS_MAX) {
          ctx.issues.push({
            code: "custom",
            message: `Refund bonus must be a whole number from 1 to ${REFUND_BONUS_MAX}`,
            path: ["refundBonusPercentage"],
            input: v.refundBonusPercentage,
          });
          return z.NEVER;
        }
        refundBonusPercentage = n;
      }
      const crowdfund = isCrowdfund(v);
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
        ticketPriceCents: v.ticketPrice,
        pactType: v.pactType,
        attendeesAnonymous: v.attendeesAnonymous,
        // SPEC §4: without anonymity, identities are revealed immediately.
        identityRevelationType: v.attendeesAnonymous ? v.identityRevelationType : ("immediate" as const),
        refundBonusPercentage,
        isTest: v.isTest,
        acceptAfterThreshold: v.acceptAfterThreshold,
        // Payment instructions belong to crowdfunds only (SPEC §3).
        paymentType: crowdfund ? (v.paymentType as (typeof PAYMENT_TYPES)[number]) : null,
        paymentMethod: crowdfund ? v.paymentMethod.replace(/^@/, "") : null,
      };
    });
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
 * Drafts: the same fields, all optional; values given must still be well-formed.
 * ---------------------------------------------------------------------------------------------- */
export const draftSchema = z
  .object({
    id: z.string().trim().min(1).max(40).optional().nullable(),
    title: optionalText.pipe(
      z.string().max(TITLE_MAX, { error: `Title must be less than ${TITLE_MAX} characters` }),
    ),
    description: optionalText.pipe(
      z
        .string()
        .max(DESCRIPTION_MAX, { error: `Description must be less than ${DESCRIPTION_MAX} characters` }),
    ),
    logisticalDetails,
    goal: optionalText.transform((raw, ctx) => (raw === "" ? null : parseGoal(raw, ctx))),
    deadline: optionalText.transform((raw, ctx) => {
      if (raw === "") return null;
      return parseDate(raw) ?? fail(ctx, "Deadline must be a valid date");
    }),
    ticketPrice: optionalText.transform((raw, ctx) => (raw === "" ? null : parseTicketPrice(raw, ctx))),
    pactType: z.enum(PACT_TYPES).optional().nullable(),
    attendeesAnonymous: bool(true),
    identityRevelationType: z.enum(REVELATION_TYPES).optional().nullable(),
    refundBonusEnabled: bool(false),
    refundBonusPercentage: optionalText.transform((raw) => {
      const n = Number(raw);
      return /^\d+$/.test(raw) && n >= 0 && n <= REFUND_BONUS_MAX ? n : 0;
    }),
    isTest: bool(false),
    acceptAfterThreshold: bool(false),
    paymentType: z
      .union([z.enum(PAYMENT_TYPES), z.literal(""), z.null()])
      .optional()
      .transform((v) => v || null),
    paymentMethod: optionalText.pipe(z.string().max(PAYMENT_HANDLE_MAX)),
  })
  .transform((v, ctx) => {
    if (!v.title && !v.description && v.goal === null && v.deadline === null) {
      ctx.issues.push({ code: "custom", message: DRAFT_EMPTY, path: ["_"], input: v });
      return z.NEVER;
    }
    return {
      id: v.id ?? null,
      title: v.title || null,
      description: v.description || null,
      logisticalDetails: v.logisticalDetails || null,
      goal: v.goal,
      deadline: v.deadline,
      ticketPriceCents: v.ticketPrice,
      pactType: v.pactType ?? null,
      attendeesAnonymous: v.attendeesAnonymous,
      identityRevelationType: v.identityRevelationType ?? null,
      refundBonusEnabled: v.refundBonusEnabled,
      refundBonusPercentage: v.refundBonusEnabled ? v.refundBonusPercentage : 0,
      isTest: v.isTest,
      acceptAfterThreshold: v.acceptAfterThreshold,
      paymentType: v.paymentType,
      paymentMethod: v.paymentMethod || null,
    };
  });

export const draftIdSchema = z.string().trim().min(1).max(40);

/* ------------------------------------------------------------------------------------------------
 * Moderation
 * ---------------------------------------------------------------------------------------------- */
export const approvalInputSchema = z.object({
  campaignId: z.string().trim().min(1).max(40),
  approvalStatus: z.enum(["approved", "rejected"]),
});
export type ApprovalInput = z.input<typeof approvalInputSchema>;
