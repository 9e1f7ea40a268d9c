import type { Standing } from "@/lib/events/standing";

/**
 * Whether a ticket admits its holder, and if not why (issue 36): the one rule, read from the place's
 * standing, its money and its event. Nothing is stored on the ticket itself, so a reinstated place
 * (a handover that fell through) holds a valid ticket again. Pure: pages, the route and the door
 * ask here.
 */
export type TicketVoidReason =
  "cancelled" | "withdrawn" | "gave_up" | "dropped" | "refunded" | "not_confirmed";

export type TicketFacts = {
  standing: Standing;
  /** the pledge's charge state ("refunded" once a refund went through) */
  chargeStatus: string;
  refundedAt: Date | null;
  campaignStatus: string;
};

export function ticketVoidReason(f: TicketFacts): TicketVoidReason | null {
  if (f.campaignStatus === "cancelled") return "cancelled";
  if (f.standing === "withdrawn") return "withdrawn";
  if (f.standing === "gave_up") return "gave_up";
  if (f.standing === "dropped") return "dropped";
  if (f.chargeStatus === "refunded" || f.refundedAt) return "refunded";
  if (f.standing !== "in") return "not_confirmed";
  return null;
}

/** What a void ticket says, to its holder and at the door. */
export const TICKET_VOID_TEXT: Record<TicketVoidReason, string> = {
  cancelled: "Void: the event was cancelled.",
  withdrawn: "Void: this commitment was withdrawn.",
  gave_up: "Void: the place was given up.",
  dropped: "Void: the payment was not made in time, so the place was released.",
  refunded: "Void: the place was refunded.",
  not_confirmed: "Void: this is not a confirmed place.",
};
