import type { DraftSummary } from "@/lib/drafts/queries";
import { emptyCampaignForm, textFormValues, type CampaignFormValues } from "@/lib/campaigns/schema";
import { depositFormValues } from "@/lib/campaigns/deposit-fields";

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

// defensive: a date the form cannot show (rows stored before years were checked) starts empty
const iso = (d: Date | null) =>
  d && d.getUTCFullYear() >= 2000 && d.getUTCFullYear() <= 9999 ? d.toISOString() : "";

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
      ...textFormValues(d),
      goal: d.goal === null ? "" : String(d.goal),
      deadline: iso(d.deadline),
      startsAt: iso(d.startsAt),
      endsAt: iso(d.endsAt),
      // empty: the form uses the browser's zone
      timeZone: d.timeZone ?? "",
      venue: d.venue ?? "",
      address: d.address ?? "",
      onlineUrl: d.onlineUrl ?? "",
      area: d.area ?? "",
      addressPrivate: d.addressPrivate,
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
      capacity: d.capacity === null ? "" : String(d.capacity),
      maxSeats: String(d.maxSeats),
      earlyGoAhead: d.earlyGoAhead,
      paymentType: d.paymentType ?? "",
      paymentMethod: d.paymentMethod ?? "",
      ...depositFormValues(d),
    },
  };
}
