import "@/lib/zod"; // no eval probe in the browser (CSP)
import { z } from "zod";
import { DRAFT_EMPTY } from "@/lib/campaigns/texts";
import { isPaidEvent } from "@/lib/events/lifecycle";
import { readRefundBonus, readTimesInZone, whenWhere } from "@/lib/campaigns/fields";
import { draftShape, textColumns } from "@/lib/campaigns/schema";
import { readDepositValues } from "@/lib/campaigns/deposit-fields";

/* ------------------------------------------------------------------------------------------------
 * Drafts: the same fields (lib/campaigns/event-fields.ts), all optional; values given must still be
 * well-formed.
 * ---------------------------------------------------------------------------------------------- */
export const draftSchema = z.preprocess(
  readTimesInZone,
  z
    .object({
      id: z.string().trim().min(1).max(40).optional().nullable(),
      ...draftShape(),
    })
    .transform((v, ctx) => {
      if (!v.title && !v.description && v.goal === null && v.deadline === null) {
        ctx.issues.push({ code: "custom", message: DRAFT_EMPTY, path: ["_"], input: v });
        return z.NEVER;
      }
      // issue 31: a bonus is kept on a paid draft only (the form offers none on a free event), and
      // within 1–20% like the event it becomes
      const paid = isPaidEvent({
        pactType: v.pactType,
        ticketPriceCents: v.ticketPrice ?? 0,
        depositCents: 0,
      });
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
      // issue 36: a draft keeps a well-formed deposit; the event's rules are checked when it is created
      // (ticked with no amount yet: nothing to keep)
      const deposit = readDepositValues(v.depositAmount ? v : { ...v, depositEnabled: false });
      if (!deposit.ok) {
        ctx.issues.push({
          code: "custom",
          message: deposit.message,
          path: [deposit.field],
          input: undefined,
        });
        return z.NEVER;
      }
      return {
        id: v.id ?? null,
        title: v.title || null,
        description: v.description || null,
        ...textColumns(v),
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
        depositCents: deposit.depositCents,
        depositGraceHours: deposit.depositGraceHours,
        maxSeats: v.maxSeats,
      };
    }),
);

export const draftIdSchema = z.string().trim().min(1).max(40);
