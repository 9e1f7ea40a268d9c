import "server-only";
import { cache } from "react";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/auth/viewer";
import { canSeeCreatorEmail, canViewCampaign } from "@/lib/campaigns/policy";

/* ------------------------------------------------------------------------------------------------
 * Campaign cards (home grid, admin dashboard)
 * ---------------------------------------------------------------------------------------------- */

const cardSelect = {
  id: true,
  title: true,
  description: true,
  goal: true,
  committedCount: true,
  deadline: true,
  status: true,
  approvalStatus: true,
  isTest: true,
  ticketPriceCents: true,
  createdAt: true,
} as const;

export type CampaignCard = {
  id: string;
  title: string;
  description: string;
  goal: number;
  committedCount: number;
  deadline: Date;
  status: string;
  approvalStatus: "pending" | "approved" | "rejected";
  isTest: boolean;
  ticketPriceCents: number;
  createdAt: Date;
};

/** Home: approved pactions (or unset type), newest first. */
export async function listHomeCampaigns({ take = 24 }: { take?: number } = {}): Promise<CampaignCard[]> {
  return db.campaign.findMany({
    where: { approvalStatus: "approved", OR: [{ pactType: "paction" }, { pactType: null }] },
    orderBy: { createdAt: "desc" },
    take,
    select: cardSelect,
  });
}

/* ------------------------------------------------------------------------------------------------
 * Campaign detail (/campaign/{id})
 * ---------------------------------------------------------------------------------------------- */

const detailSelect = {
  ...cardSelect,
  logisticalDetails: true,
  creatorId: true,
  creatorEmail: true,
  pactType: true,
  refundBonusPercentage: true,
  paymentType: true,
  paymentMethod: true,
  attendeesAnonymous: true,
  identityRevelationType: true,
  pledgeCount: true,
  raisedCents: true,
  chargedAt: true,
} as const;

export type CampaignDetail = CampaignCard & {
  logisticalDetails: string | null;
  creatorId: string;
  creatorEmail: string;
  pactType: "paction" | "crowdfund" | null;
  refundBonusPercentage: number;
  paymentType: "venmo" | "paypal" | "other" | null;
  paymentMethod: string | null;
  attendeesAnonymous: boolean;
  identityRevelationType: "never" | "onStart" | "immediate";
  pledgeCount: number;
  raisedCents: number;
  chargedAt: Date | null;
};

/** What the event page renders: the campaign with the creator email only when the viewer may see it. */
export type CampaignView = Omit<CampaignDetail, "creatorEmail"> & {
  /** null when the viewer may not see it (the page shows "Event organizer"). */
  creatorEmail: string | null;
  viewer: { id: string; isAdmin: boolean; isCreator: boolean; committed: boolean } | null;
};

/** Syntactically possible campaign ids (cuid, or the e2e fixtures' ids); anything else is unknown. */
export const isCampaignId = (id: string) => /^[a-z0-9]{10,40}$/i.test(id);

/** The viewer-independent campaign row (cacheable); null when missing. */
export const getCampaignDetail = cache(async (id: string): Promise<CampaignDetail | null> => {
  if (!isCampaignId(id)) return null;
  return db.campaign.findUnique({ where: { id }, select: detailSelect });
});

export async function hasCommitted(campaignId: string, userId: string): Promise<boolean> {
  const pledge = await db.pledge.findUnique({ where: { campaignId_userId: { campaignId, userId } }, select: { id: true } });
  return pledge !== null;
}

/**
 * One campaign as `viewer` may see it; null when it does not exist for them (missing, or not
 * approved and the viewer is neither its creator nor an admin — DESIGN §1).
 */
export async function getCampaignForViewer(id: string, viewer: Viewer | null): Promise<CampaignView | null> {
  const campaign = await getCampaignDetail(id);
  if (!campaign || !canViewCampaign(viewer, campaign)) return null;
  const committed = viewer ? await hasCommitted(campaign.id, viewer.id) : false;
  const { creatorEmail, ...rest } = campaign;
  return {
    ...rest,
    creatorEmail: canSeeCreatorEmail(viewer, campaign, committed) ? creatorEmail : null,
    viewer: viewer
      ? { id: viewer.id, isAdmin: viewer.isAdmin, isCreator: viewer.id === campaign.creatorId, committed }
      : null,
  };
}
