import "server-only";
import { db } from "@/lib/db";
import type { Viewer } from "@/lib/auth/viewer";

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
  approvalStatus: string;
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

/** One campaign as the viewer may see it; null when it does not exist for them. */
export async function getCampaignForViewer(id: string, viewer: Viewer | null) {
  if (!/^[a-z0-9]{10,40}$/i.test(id)) return null;
  const campaign = await db.campaign.findUnique({
    where: { id },
    select: { ...cardSelect, logisticalDetails: true, creatorId: true, pactType: true },
  });
  if (!campaign) return null;
  const privileged = viewer && (viewer.isAdmin || viewer.id === campaign.creatorId);
  if (campaign.approvalStatus !== "approved" && !privileged) return null;
  return campaign;
}
