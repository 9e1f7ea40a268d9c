import "server-only";
import { db } from "@/lib/db";
import { textColumnSelect, type TextColumn } from "@/lib/campaigns/schema";

export type DraftSummary = {
  id: string;
  title: string | null;
  description: string | null;
  goal: number | null;
  deadline: Date | null;
  ticketPriceCents: number | null;
  pactType: "paction" | "crowdfund" | null;
  attendeesAnonymous: boolean;
  identityRevelationType: "never" | "onStart" | "immediate" | null;
  refundBonusEnabled: boolean;
  refundBonusPercentage: number;
  isTest: boolean;
  acceptAfterThreshold: boolean;
  capacity: number | null;
  earlyGoAhead: boolean;
  paymentType: "venmo" | "paypal" | "other" | null;
  paymentMethod: string | null;
  startsAt: Date | null;
  endsAt: Date | null;
  timeZone: string | null;
  venue: string | null;
  address: string | null;
  onlineUrl: string | null;
  area: string | null;
  addressPrivate: boolean;
  depositCents: number;
  depositGraceHours: number;
  maxSeats: number;
  createdAt: Date;
  updatedAt: Date;
} & Record<TextColumn, string | null>;

const DRAFT_LIST_LIMIT = 100;

/** The drafts of one user (only ever their own), most recently edited first. */
export async function listDrafts(userId: string): Promise<DraftSummary[]> {
  return db.campaignDraft.findMany({
    where: { creatorId: userId },
    orderBy: { updatedAt: "desc" },
    take: DRAFT_LIST_LIMIT,
    select: {
      id: true,
      title: true,
      description: true,
      ...textColumnSelect,
      goal: true,
      deadline: true,
      ticketPriceCents: true,
      pactType: true,
      attendeesAnonymous: true,
      identityRevelationType: true,
      refundBonusEnabled: true,
      refundBonusPercentage: true,
      startsAt: true,
      endsAt: true,
      timeZone: true,
      venue: true,
      address: true,
      onlineUrl: true,
      area: true,
      addressPrivate: true,
      isTest: true,
      acceptAfterThreshold: true,
      capacity: true,
      earlyGoAhead: true,
      paymentType: true,
      paymentMethod: true,
      depositCents: true,
      depositGraceHours: true,
      maxSeats: true,
      createdAt: true,
      updatedAt: true,
    },
  });
}
