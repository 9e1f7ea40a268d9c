import "server-only";
import { isCampaignId } from "@/lib/ids";
import { seeCampaign, standingPledgeOf } from "@/lib/campaigns/queries";
import { waitlistPositions } from "@/lib/campaigns/waitlist";
import { type EventPlace, placeFor, placeLine } from "@/lib/campaigns/place";
import { appUrl } from "@/lib/env";
import { depositText } from "@/lib/events/money-sentences";
import { isCrowdfund, isJoinable, phaseOf, type Phase } from "@/lib/events/lifecycle";
import type { Actor } from "@/lib/access/rules";
import { canSeeExactPlace, isApproved } from "@/lib/access/rules";

type ShareInfo = {
  id: string;
  title: string;
  description: string;
  url: string;
  deadline: Date;
  createdAt: Date;
  goal: number;
  committedCount: number;
  raisedCents: number;
  crowdfund: boolean;
  status: string;
  ticketPriceCents: number;
  /** issue 36: "$10.00 show-up deposit, refunded when you check in", or null without one */
  deposit: string | null;
  approved: boolean;
  pledgeCount: number;
  startsAt: Date | null;
  endsAt: Date | null;
  timeZone: string;
  /** as this viewer may see it: an attendee-only address is left out for others */
  place: EventPlace;
  /** what anyone may see of the place: the flyer and the social image are public */
  publicPlace: EventPlace;
  calendarSequence: number;
  chargedAt: Date | null;
  /** the uploaded cover (issue 17), or null */
  coverId: string | null;
  /** issue 20: the viewer's place on the waitlist, or null when they are not waiting */
  waitlistPosition: number | null;
  /** the event's phase now, and whether a newcomer may still commit (the flyer asks: lib/events/lifecycle) */
  phase: Phase;
  joinable: boolean;
};

/** What sharing surfaces (flyer, calendar file, social image) may show: no identities at all. Null when the event does not exist for the viewer. */
export async function getShareInfo(campaignId: string, viewer: Actor): Promise<ShareInfo | null> {
  if (!isCampaignId(campaignId)) return null;
  const c = await seeCampaign(campaignId, viewer);
  if (!c) return null;
  const standing = viewer ? await standingPledgeOf(c.id, viewer.id) : null;
  const committed = standing !== null && !standing.waiting;
  const waiting = standing?.waiting ? standing.id : null;
  const waitlistPosition = waiting ? ((await waitlistPositions(c.id, [waiting])).get(waiting) ?? null) : null;
  return {
    id: c.id,
    title: c.title,
    description: c.description,
    url: `${appUrl()}/campaign/${c.id}`,
    deadline: c.deadline,
    createdAt: c.createdAt,
    goal: c.goal,
    committedCount: c.committedCount,
    raisedCents: c.raisedCents,
    crowdfund: isCrowdfund(c),
    status: c.status,
    ticketPriceCents: c.ticketPriceCents,
    deposit: depositText(c),
    approved: isApproved(c),
    pledgeCount: c.pledgeCount,
    startsAt: c.startsAt,
    endsAt: c.endsAt,
    timeZone: c.timeZone,
    place: placeFor(c, canSeeExactPlace(viewer, c, committed)),
    publicPlace: placeFor(c, false),
    calendarSequence: c.calendarSequence,
    chargedAt: c.chargedAt,
    coverId: c.coverId,
    waitlistPosition,
    phase: phaseOf(c, new Date()),
    joinable: isJoinable(c, new Date()),
  };
}

/** Progress in the goal's unit: people, or whole dollars for a crowdfund. */
export const shareProgress = (s: Pick<ShareInfo, "crowdfund" | "committedCount" | "raisedCents">) =>
  s.crowdfund ? Math.floor(s.raisedCents / 100) : s.committedCount;

/**
 * The calendar entry of an event as this viewer may have it: the .ics file (calendar.ics) and the
 * Google Calendar and Outlook links (components/sharing) are all built from this, so they say the
 * same thing and leave out the same things (an attendee-only address: `place` is placeFor's). Null
 * before the event has a date. Someone on the waitlist gets an entry that says where they stand.
 */
export function calendarEventOf(info: ShareInfo) {
  if (!info.startsAt) return null;
  const waiting = info.waitlistPosition;
  return {
    campaignId: info.id,
    title: waiting ? `Waitlist #${waiting}: ${info.title}` : info.title,
    description: `${waiting ? `You're #${waiting} on the waitlist. This entry becomes yours only if a place opens for you before the event starts.\n\n` : ""}${info.description}\n\n${info.url}`,
    url: info.url,
    start: info.startsAt,
    end: info.endsAt,
    timeZone: info.timeZone,
    location: placeLine(info.place),
    sequence: info.calendarSequence,
  };
}
