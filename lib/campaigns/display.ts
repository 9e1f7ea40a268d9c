/** Display helpers shared by server and client components (no server imports). */
import type { CampaignCard } from "@/lib/campaigns/queries";

export const PAYMENT_TYPE_LABELS: Record<string, string> = {
  venmo: "Venmo",
  paypal: "PayPal",
  other: "Other",
};

/** Venmo handles are shown with an @ prefix (SPEC §2). */
export function paymentHandle(type: string | null, method: string | null): string | null {
  if (!method) return null;
  if (type === "venmo") return method.startsWith("@") ? method : `@${method}`;
  return method;
}

/** What a card shows; the description only as far as three clamped lines can show it. */
export type HomeCard = Pick<
  CampaignCard,
  | "id"
  | "title"
  | "description"
  | "goal"
  | "committedCount"
  | "deadline"
  | "approvalStatus"
  | "isTest"
  | "ticketPriceCents"
>;

/** The longest description start a card can show in its three lines (the page sends no more). */
const CARD_DESCRIPTION_MAX = 320;

export const homeCard = (c: CampaignCard): HomeCard => ({
  id: c.id,
  title: c.title,
  description:
    c.description.length > CARD_DESCRIPTION_MAX
      ? `${Array.from(c.description)
          .slice(0, CARD_DESCRIPTION_MAX - 1)
          .join("")}…`
      : c.description,
  goal: c.goal,
  committedCount: c.committedCount,
  deadline: c.deadline,
  approvalStatus: c.approvalStatus,
  isTest: c.isTest,
  ticketPriceCents: c.ticketPriceCents,
});
