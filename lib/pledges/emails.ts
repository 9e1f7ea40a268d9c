import "server-only";
import { appUrl } from "@/lib/env";
import { renderEmail } from "@/lib/email/render";
import { SEAT_INVITE_KEY, type QueuedEmail } from "@/lib/email/schema";
import { campaignUrl } from "@/lib/campaigns/emails";

/**
 * The emails of named friends (issue 37 item 1, lib/pledges/friends.ts), as data for queueEmail. The
 * claim link carries the raw token (the row keeps its hash); /admin/emails never shows its text
 * (SEAT_INVITE_KEY is masked like the confirmation links).
 */

export const claimUrl = (token: string) => `${appUrl()}/claim/${token}`;

/** To the friend the holder named: the claim link for one seat. `inviter` is the holder's own name, if they set one. */
export function seatInviteEmail(
  c: { id: string; title: string },
  to: { email: string; inviter: string | null; inviteId: string; token: string },
): QueuedEmail {
  const who = to.inviter?.trim() ? to.inviter.trim() : "Someone who committed";
  return {
    dedupeKey: `${SEAT_INVITE_KEY}${to.inviteId}`,
    to: to.email,
    subject: `A seat for you: ${c.title}`,
    ...renderEmail({
      heading: "A seat is held for you",
      paragraphs: [
        `${who} committed to "${c.title}" on PactNexus with a seat for you.`,
        "Claim it to have it in your own account, with your own ticket and calendar entry. Sign in (or create an account) first; the link works once.",
        "If you already have a commitment to this event, you cannot claim a second seat: the seat stays with the person who invited you.",
      ],
      action: { label: "Claim your seat", url: claimUrl(to.token) },
    }),
  };
}

/**
 * To the holder, when the friend they named claimed the seat. The friend is named only by the address
 * the holder typed for them (never the friend's account name or email), and only in the text: the
 * subject is generic, as every subject of these emails is. One per invitation: a link
 * works once, so the key is the invitation's.
 */
export function seatClaimedEmail(
  c: { id: string; title: string },
  to: { email: string; invited: string; inviteId: string },
): QueuedEmail {
  return {
    dedupeKey: `seat-claimed:${to.inviteId}`,
    to: to.email,
    // the subject is listed in the admins' outbox: it names nobody (the address is the holder's to read)
    subject: `Your friend claimed their seat: "${c.title}"`,
    ...renderEmail({
      heading: "Your friend claimed their seat",
      paragraphs: [
        `The seat you named ${to.invited} for at "${c.title}" is now in their own account, with their own ticket and calendar entry. The seat keeps its place.`,
        "If they give it up, it comes back to you as a guest seat, and we will tell you.",
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
  };
}

/**
 * To the holder, when a claimed seat came back to them (its friend withdrew): it is their guest seat
 * `guestSlot` again. One per claim (the key is the claimed invitation's: a seat claimed again needs a
 * new invitation).
 */
export function seatReturnedEmail(
  c: { id: string; title: string },
  to: { email: string; invited: string; inviteId: string; guestSlot: number },
): QueuedEmail {
  return {
    dedupeKey: `seat-returned:${to.inviteId}`,
    to: to.email,
    subject: `A seat came back to you: "${c.title}"`,
    ...renderEmail({
      heading: "A seat came back to you",
      paragraphs: [
        `${to.invited} gave up the seat you named them for at "${c.title}", so it is yours again as Guest ${to.guestSlot}. The seat keeps its place.`,
        'To give it to someone else, name them under "Invite your guests" on the event page.',
      ],
      action: { label: "View the event", url: campaignUrl(c) },
    }),
  };
}
