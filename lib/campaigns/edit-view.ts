import "server-only";
import { RESUBMIT_MAX } from "@/lib/campaigns/resubmit";
import { db } from "@/lib/db";
import type { Actor } from "@/lib/access/rules";
import { loadCampaignFor } from "@/lib/access/policy";
import { isCampaignId } from "@/lib/ids";
import {
  textColumnSelect,
  textFormValues,
  type CampaignFormValues,
  type TextColumn,
} from "@/lib/campaigns/schema";
import { formatInZone, toWallClock } from "@/lib/campaigns/event-time";
import { editRules, editSelect } from "@/lib/campaigns/edit";
import { deadlineLimits } from "@/lib/campaigns/limits";
import { REFUND_BONUS_DEFAULT } from "@/lib/campaigns/limits";
import { depositFormValues } from "@/lib/campaigns/deposit-fields";

/* The edit form's data (app/campaign/[campaignId]/edit): what lib/campaigns/edit.ts accepts, read back. */

/** The edit form's starting values (times as wall clocks in the event's zone) and what is locked. */
export type EditView = {
  id: string;
  values: Pick<
    CampaignFormValues,
    | "title"
    | "description"
    | TextColumn
    | "goal"
    | "ticketPrice"
    | "deadline"
    | "startsAt"
    | "endsAt"
    | "timeZone"
    | "venue"
    | "address"
    | "onlineUrl"
    | "area"
    | "addressPrivate"
    | "capacity"
    | "maxSeats"
    | "refundBonusEnabled"
    | "refundBonusPercentage"
    | "depositEnabled"
    | "depositAmount"
    | "depositGraceHours"
  >;

  crowdfund: boolean;
  moneyLocked: boolean;
  deadlineOpen: boolean;
  /** issue 31: the latest deadline allowed now (the event's zone), as the form's `max` and in words */
  latestDeadline: { wall: string; text: string; original: string | null };
  /** issue 34: a rejected event — saving resubmits it while resubmits are left */
  rejection: { resubmitsLeft: number } | null;
};

/** The edit form's data, or null when `actor` may not manage the event (the page sends them home). */
export async function getEditView(
  actor: Actor,
  campaignId: string,
  now = new Date(),
): Promise<EditView | null> {
  if (!actor || !isCampaignId(campaignId)) return null;
  const c = await loadCampaignFor(actor, campaignId, "manage", {
    select: { ...editSelect, description: true, ...textColumnSelect, resubmitCount: true },
  }).catch(() => null);
  if (!c) return null;
  const pledgeCount = await db.pledge.count({ where: { campaignId } });
  const wall = (d: Date | null) => (d ? toWallClock(d.getTime(), c.timeZone) : "");
  const rules = editRules({ ...c, pledgeCount }, now);
  const limits = deadlineLimits(c, now, rules.moneyLocked);
  const cents = c.ticketPriceCents;
  return {
    id: c.id,
    values: {
      title: c.title,
      description: c.description,
      ...textFormValues(c),
      goal: String(c.goal),
      ticketPrice: cents === 0 ? "" : cents % 100 === 0 ? String(cents / 100) : (cents / 100).toFixed(2),
      deadline: wall(c.deadline),
      startsAt: wall(c.startsAt),
      endsAt: wall(c.endsAt),
      timeZone: c.timeZone,
      venue: c.venue ?? "",
      address: c.address ?? "",
      onlineUrl: c.onlineUrl ?? "",
      area: c.area ?? "",
      addressPrivate: c.addressPrivate,
      capacity: c.capacity === null ? "" : String(c.capacity),
      maxSeats: String(c.maxSeats),
      refundBonusEnabled: c.refundBonusPercentage > 0,
      refundBonusPercentage: String(c.refundBonusPercentage || REFUND_BONUS_DEFAULT),
      // issue 36: the show-up deposit, fixed like the price once someone committed
      ...depositFormValues(c),
    },
    crowdfund: c.pactType === "crowdfund",
    ...rules,
    latestDeadline: {
      wall: wall(limits.latest),
      text: formatInZone(limits.latest, c.timeZone),
      // null before anyone committed: no cap yet (the form says so)
      original: limits.cap ? formatInZone(limits.original, c.timeZone) : null,
    },
    rejection:
      c.approvalStatus === "rejected" ? { resubmitsLeft: Math.max(0, RESUBMIT_MAX - c.resubmitCount) } : null,
  };
}
