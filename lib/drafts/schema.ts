import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { DESCRIPTION_MAX, LOGISTICS_MAX, PAYMENT_HANDLE_MAX, TITLE_MAX } from "@/lib/campaigns/limits";
import { DRAFT_EMPTY } from "@/lib/campaigns/texts";
import { PACT_TYPES, PAYMENT_TYPES, REVELATION_TYPES } from "@/lib/campaigns/schema";
import { isPaidEvent } from "@/lib/events/lifecycle";
import {
  addressField,
  areaField,
  bool,
  fail,
  gapMessage,
  onlineUrlField,
  optionalText,
  optionalTime,
  parseDate,
  parseGoal,
  parseTicketPrice,
  readRefundBonus,
  readTimesInZone,
  timeZoneField,
  venueField,
  whenWhere,
} from "@/lib/campaigns/fields";

const logisticalDetails = optionalText.pipe(
  z
    .string()
    .max(LOGISTICS_MAX, { error: `Logistical details must be less than ${LOGISTICS_MAX} characters` }),
);

/* ------------------------------------------------------------------------------------------------
 * Drafts: the same fields, all optional; values given must still be well-formed.
 * ---------------------------------------------------------------------------------------------- */
export const draftSchema = z.preprocess(
  readTimesInZone,
  z
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
        const gap = gapMessage(raw, "This deadline");
        if (gap) return fail(ctx, gap);
        return parseDate(raw) ?? fail(ctx, "Deadline must be a valid date");
      }),
      startsAt: optionalTime("The start", () => Date.now()),
      endsAt: optionalTime("The end", () => Date.now()),
      timeZone: timeZoneField,
      venue: venueField,
      address: addressField,
      onlineUrl: onlineUrlField,
      area: areaField,
      addressPrivate: bool(false),
      ticketPrice: optionalText.transform((raw, ctx) => (raw === "" ? null : parseTicketPrice(raw, ctx))),
      pactType: z.enum(PACT_TYPES).optional().nullable(),
      attendeesAnonymous: bool(true),
      identityRevelationType: z.enum(REVELATION_TYPES).optional().nullable(),
      refundBonusEnabled: bool(false),
      refundBonusPercentage: optionalText,
      isTest: bool(false),
      acceptAfterThreshold: bool(false),
      earlyGoAhead: bool(false),
      // a draft keeps what was typed if it is a number of people; the create step checks it against the goal
      capacity: optionalText.transform((raw) => {
        const n = Number(raw);
        return /^\d+$/.test(raw) && n >= 1 && n <= 10_000 ? n : null;
      }),
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
      // issue 31: a bonus is kept on a paid draft only (the form offers none on a free event), and
      // within 1–20% like the event it becomes
      const paid = isPaidEvent({ pactType: v.pactType, ticketPriceCents: v.ticketPrice ?? 0 });
      const bonus = readRefundBonus(v.refundBonusEnabled && paid, v.refundBonusPercentage, paid);
      if (!bonus.ok) {
        ctx.issues.push({
          code: "custom",
          message: bonus.message,
          path: ["refundBonusPercentage"],
          input: v.refundBonusPercentage,
        });
        return z.NEVER;
      }
      return {
        id: v.id ?? null,
        title: v.title || null,
        description: v.description || null,
        logisticalDetails: v.logisticalDetails || null,
        goal: v.goal,
        deadline: v.deadline,
        ...whenWhere(v),
        ticketPriceCents: v.ticketPrice,
        pactType: v.pactType ?? null,
        attendeesAnonymous: v.attendeesAnonymous,
        identityRevelationType: v.identityRevelationType ?? null,
        refundBonusEnabled: bonus.percent > 0,
        refundBonusPercentage: bonus.percent,
        isTest: v.isTest,
        acceptAfterThreshold: v.acceptAfterThreshold,
        capacity: v.capacity,
        earlyGoAhead: v.earlyGoAhead,
        paymentType: v.paymentType,
        paymentMethod: v.paymentMethod || null,
      };
    }),
);

export const draftIdSchema = z.string().trim().min(1).max(40);
