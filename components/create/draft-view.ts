import type { DraftSummary } from "@/lib/drafts/queries";
import { emptyCampaignForm, type CampaignFormValues } from "@/lib/campaigns/schema";

/** A draft as the client needs it: the form values plus what the list shows. */
export type DraftView = {
  id: string;
  title: string | null;
  description: string | null;
  goal: number | null;
  updatedAt: string;
  hasPactType: boolean;
  values: CampaignFormValues;
};

const centsToDollars = (cents: number) =>
  cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2);

export function toDraftView(d: DraftSummary): DraftView {
  return {
    id: d.id,
    title: d.title,
    description: d.description,
    goal: d.goal,
    updatedAt: d.updatedAt.toISOString(),
    hasPactType: d.pactType !== null,
    values: {
      ...emptyCampaignForm,
      title: d.title ?? "",
      description: d.description ?? "",
      logisticalDetails: d.logisticalDetails ?? "",
      goal: d.goal === null ? "" : String(d.goal),
      // defensive: a date the form cannot show (rows stored before years were checked) starts empty
      deadline:
        d.deadline && d.deadline.getUTCFullYear() >= 2000 && d.deadline.getUTCFullYear() <= 9999
          ? d.deadline.toISOString()
          : "",
      ticketPrice: d.ticketPriceCents === null ? "" : centsToDollars(d.ticketPriceCents),
      pactType: d.pactType ?? "paction",
      attendeesAnonymous: d.attendeesAnonymous,
      identityRevelationType: d.identityRevelationType ?? "never",
      refundBonusEnabled: d.refundBonusEnabled,
      refundBonusPercentage: d.refundBonusEnabled
        ? String(d.refundBonusPercentage)
        : emptyCampaignForm.refundBonusPercentage,
      isTest: d.isTest,
      acceptAfterThreshold: d.acceptAfterThreshold,
      paymentType: d.paymentType ?? "",
      paymentMethod: d.paymentMethod ?? "",
    },
  };
}
