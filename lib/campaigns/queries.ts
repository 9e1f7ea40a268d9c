import "server-only";
import { isCampaignId } from "@/lib/ids";
import { cache } from "react";
import { db } from "@/lib/db";
import { memberHasCommitted, type Viewer } from "@/lib/access/viewer";
import { homeFilterWhere } from "@/lib/campaigns/filters";
import { type HomeFilter, type HomeSort } from "@/lib/campaigns/filters";
import { searchHomeIds } from "@/lib/campaigns/search";
import { HOME_PAGE_SIZE } from "@/lib/campaigns/limits";
import { isCrowdfund, STANDING_PLEDGE } from "@/lib/events/lifecycle";
import { type Actor, canSeeCreatorEmail, canSeeEvent, canSeeExactPlace } from "@/lib/access/rules";
import { textColumnSelect, type TextColumn } from "@/lib/campaigns/schema";
import { type EventPlace, type WhenWhereRow, placeFor, whenWhereSelect } from "@/lib/campaigns/place";

/* ------------------------------------------------------------------------------------------------
 * Campaign cards (home grid, admin dashboard)
 * ---------------------------------------------------------------------------------------------- */

export const cardSelect = {
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
  startsAt: true,
  timeZone: true,
  venue: true,
  area: true,
  coverId: true,
  capacity: true,
  pledgeCount: true,
  acceptAfterThreshold: true,
  depositCents: true,
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
  /** issue 36: the show-up deposit (0: none) */
  depositCents: number;
  createdAt: Date;
  startsAt: Date | null;
  timeZone: string;
  /** public parts of the place only (never the address) */
  venue: string | null;
  area: string | null;
  /** the uploaded cover (issue 17); null: a generated one is drawn */
  coverId: string | null;
  /** "x places left" (issue 34) and joinable */
  capacity: number | null;
  pledgeCount: number;
  acceptAfterThreshold: boolean;
};

/** Home lists pactions and events with no type (SPEC §1). */
const homeTypeWhere = { OR: [{ pactType: "paction" as const }, { pactType: null }] };

export type HomePage = { campaigns: CampaignCard[]; total: number; page: number; pageCount: number };

/**
 * Home grid: newest first, 24 a page. Non-admins see approved events only; admins see every event
 * (with badges). Offset pagination over the (approvalStatus, createdAt) index stays fast at 10,000 rows.
 * A search or another sort (issue 34) is answered in SQL (lib/campaigns/search.ts) under the same rules.
 */
export async function listHomeCampaigns({
  filter = "all",
  page = 1,
  isAdmin = false,
  now = new Date(),
  pageSize = HOME_PAGE_SIZE,
  sort = "newest",
  q = "",
}: {
  filter?: HomeFilter;
  page?: number;
  isAdmin?: boolean;
  now?: Date;
  pageSize?: number;
  sort?: HomeSort;
  q?: string;
} = {}): Promise<HomePage> {
  if (sort !== "newest" || q) {
    const found = await searchHomeIds({ filter, sort, q, isAdmin, now }, { page, pageSize });
    const rows = await db.campaign.findMany({ where: { id: { in: found.ids } }, select: cardSelect });
    const byId = new Map(rows.map((r) => [r.id, r]));
    return {
      campaigns: found.ids.flatMap((id) => byId.get(id) ?? []),
      total: found.total,
      page: found.page,
      pageCount: Math.max(1, Math.ceil(found.total / pageSize)),
    };
  }
  const where = {
    AND: [
      isAdmin ? {} : { approvalStatus: "approved" as const },
      homeTypeWhere,
      homeFilterWhere(filter, now),
    ],
  };
  const total = await db.campaign.count({ where });
  const pageCount = Math.max(1, Math.ceil(total / pageSize));
  const current = Math.min(Math.max(1, page), pageCount);
  const campaigns = await db.campaign.findMany({
    where,
    orderBy: [{ createdAt: "desc" }, { id: "desc" }],
    skip: (current - 1) * pageSize,
    take: pageSize,
    select: cardSelect,
  });
  return { campaigns, total, page: current, pageCount };
}

/* ------------------------------------------------------------------------------------------------
 * Campaign detail (/campaign/{id})
 * ---------------------------------------------------------------------------------------------- */

const detailSelect = {
  ...cardSelect,
  ...textColumnSelect,
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
  acceptAfterThreshold: true,
  capacity: true,
  waitlistCount: true,
  earlyGoAhead: true,
  goAheadAt: true,
  goAheadCount: true,
  cancelReason: true,
  resubmitCount: true,
  depositCents: true,
  depositGraceHours: true,
  maxSeats: true,
  ...whenWhereSelect,
} as const;

export type CampaignDetail = CampaignCard &
  Record<TextColumn, string | null> & {
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
    acceptAfterThreshold: boolean;
    capacity: number | null;
    waitlistCount: number;
    /** issue 37: the most people one commitment may hold (lib/events/seats maxSeatsOf says where) */
    maxSeats: number;
    earlyGoAhead: boolean;
    goAheadAt: Date | null;
    goAheadCount: number | null;
    /** issue 34: why the event was cancelled (shown to everyone who sees the event), or null */
    cancelReason: string | null;
    /** issue 34: times it was resubmitted after a rejection */
    resubmitCount: number;
    /** issue 36: the show-up deposit (0: none) and its grace after the end, in hours */
    depositCents: number;
    depositGraceHours: number;
  } & WhenWhereRow;

/** What the event page renders: the campaign with the creator email only when the viewer may see it. */
export type CampaignView = Omit<CampaignDetail, "creatorEmail" | "address" | "onlineUrl"> & {
  /** null when the viewer may not see it (the page shows "Event organizer"). */
  creatorEmail: string | null;
  /** The place as this viewer may see it: an attendee-only address is left out for others. */
  place: EventPlace;
  viewer: { id: string; isAdmin: boolean; isCreator: boolean; committed: boolean } | null;
};

/**
 * The viewer-independent campaign row (cacheable); null when missing. Read once per request: the
 * event page's sections (commit panel, commitments, comments, updates, sharing) all start from it.
 */
export const getCampaignDetail = cache(async (id: string): Promise<CampaignDetail | null> => {
  if (!isCampaignId(id)) return null;
  const c = await db.campaign.findUnique({ where: { id }, select: detailSelect });
  // money sums are bigint in the database (10,000 × $10,000 > 2^31 cents) and numbers from here on (< 2^53)
  return c && { ...c, raisedCents: Number(c.raisedCents) };
});

/**
 * The user's standing commitment to the campaign (not withdrawn): in, or waiting on the waitlist
 * (issue 20). One read per request however many sections ask. A cached member copy is never made
 * for someone waiting (lib/cache/visitor-version), so its stand-in viewer is in or not, never waiting.
 */
export const standingPledgeOf = cache(
  async (
    campaignId: string,
    userId: string,
  ): Promise<{ id: string; waiting: boolean; condition: number | null } | null> => {
    const member = memberHasCommitted(userId); // the stand-in viewer of a cached member copy
    // (a member copy's committed audience holds counted places only: lib/cache/visitor-version)
    if (member !== null) return member ? { id: "", waiting: false, condition: null } : null;
    const pledge = await db.pledge.findFirst({
      where: { campaignId, userId, ...STANDING_PLEDGE },
      select: { id: true, waitlistedAt: true, standing: true, minPeople: true },
      // issue 37: a holder's own seat, not a guest seat still waiting
      orderBy: { guestSlot: "asc" },
    });
    return (
      pledge && {
        id: pledge.id,
        waiting: pledge.waitlistedAt !== null,
        // issue 34: a place held on a condition that does not hold yet ("Counts when N are in")
        condition: pledge.standing === "conditional" ? pledge.minPeople : null,
      }
    );
  },
);

/** Whether the user holds a place (a live pledge, not withdrawn and not waiting). */
export const hasCommitted = async (campaignId: string, userId: string): Promise<boolean> => {
  const p = await standingPledgeOf(campaignId, userId);
  return p !== null && !p.waiting;
};

/**
 * One campaign as `viewer` may see it; null when it does not exist for them (missing, or not
 * approved and the viewer is neither its creator nor an admin — DESIGN §1).
 */
/**
 * The one visibility check of a render (lib/access/rules canSeeEvent): the campaign as `viewer` may
 * see it, or null when it does not exist for them. Memoised per request on (id, viewer), so the
 * event page and every section it renders ask once; outside a render (actions, tests) it is a
 * plain call.
 */
export const seeCampaign = cache(async (id: string, viewer: Actor): Promise<CampaignDetail | null> => {
  const campaign = await getCampaignDetail(id);
  return campaign && canSeeEvent(viewer, campaign) ? campaign : null;
});

export async function getCampaignForViewer(id: string, viewer: Viewer | null): Promise<CampaignView | null> {
  const campaign = await seeCampaign(id, viewer);
  if (!campaign) return null;
  const committed = viewer ? await hasCommitted(campaign.id, viewer.id) : false;
  // address and onlineUrl leave the row here: only `place` (what this viewer may see) goes on.
  const { creatorEmail, address: _address, onlineUrl: _onlineUrl, ...rest } = campaign;
  return {
    ...rest,
    creatorEmail: canSeeCreatorEmail(viewer, campaign, committed) ? creatorEmail : null,
    place: placeFor(campaign, canSeeExactPlace(viewer, campaign, committed)),
    viewer: viewer
      ? { id: viewer.id, isAdmin: viewer.isAdmin, isCreator: viewer.id === campaign.creatorId, committed }
      : null,
  };
}

/**
 * The organizer's display name for the event page's organizer box (issue 34 item 6), under the same
 * rule as their email (DESIGN §1 "creator email": the creator, admins and users who committed):
 * only when `view` (getCampaignForViewer's answer) carries the email; null otherwise or when they set
 * none. Read only for those viewers, so visitors' (cached) renders cost nothing more.
 */
export async function organizerNameFor(view: Pick<CampaignView, "creatorId" | "creatorEmail">) {
  if (view.creatorEmail === null) return null;
  const user = await db.user.findUnique({ where: { id: view.creatorId }, select: { name: true } });
  return user?.name?.trim() || null;
}

/** A campaign on its creator's profile ("Your Active Pacts"). */
export type CreatorPact = {
  id: string;
  title: string;
  description: string;
  status: string;
  approvalStatus: string;
  pactType: "paction" | "crowdfund";
  goal: number;
  committedCount: number;
  ticketPriceCents: number;
  /** Goal in cents: crowdfund goal dollars; paction goal × ticket price (0 for a free event). */
  goalCents: number;
  /** Raised in cents: crowdfund pledged sum; paction committed × ticket price (nothing moves before charging). */
  raisedCents: number;
  createdAt: Date;
  deadline: Date;
  startsAt: Date | null;
  endsAt: Date | null;
  timeZone: string;
};

/** Every campaign `userId` created, newest first, whatever its status or approval (SPEC §2 Profile). */
export async function listCampaignsByCreator(userId: string): Promise<CreatorPact[]> {
  const rows = await db.campaign.findMany({
    where: { creatorId: userId },
    orderBy: { createdAt: "desc" },
    select: {
      id: true,
      title: true,
      description: true,
      status: true,
      approvalStatus: true,
      pactType: true,
      goal: true,
      committedCount: true,
      ticketPriceCents: true,
      raisedCents: true,
      createdAt: true,
      deadline: true,
      startsAt: true,
      endsAt: true,
      timeZone: true,
    },
  });
  return rows.map((c) => {
    const crowdfund = isCrowdfund(c);
    return {
      ...c,
      pactType: crowdfund ? "crowdfund" : "paction",
      goalCents: crowdfund ? c.goal * 100 : c.goal * c.ticketPriceCents,
      raisedCents: crowdfund ? Number(c.raisedCents) : c.committedCount * c.ticketPriceCents,
    };
  });
}
