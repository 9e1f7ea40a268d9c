import "server-only";
import { appUrl } from "@/lib/env";
import { renderEmail } from "@/lib/email/render";
import { SEAT_INVITE_KEY, type QueuedEmail } from "@/lib/email/schema";

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
